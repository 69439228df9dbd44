import GrayImage
import KioskCore

extension ScreenRenderer {
    /// Between guests: what to do, the camera picture (drawn by `drawPreview`) with a target frame, and
    /// the status line.
    func readyLayout(_ status: DoorStatus, _ m: Metrics) -> ScreenLayout {
        var layout = ScreenLayout(width: m.width, height: m.height, background: ScreenPalette.night)
        let bar = statusBar(status, m, field: RGBColor(hex: 0x3A4654), showsRate: true)
        let width = m.width - 2 * m.margin
        var y = m.size(40)
        let headline = FittedText.fit(
            status.camera.isDisconnected ? "Camera disconnected" : "Hold your QR pass to the camera", font: fonts.bold,
            maxWidth: width, rule: rule(m, 14, min: 24))
        layout.texts.append(centred(.headline, headline, .bold, .white, m, y: y))
        y += headline.height + m.size(200)
        let hint = FittedText.fit(
            status.camera.isDisconnected
                ? "Type a code or a name and press Enter" : "or type a code or a name and press Enter",
            font: fonts.regular, maxWidth: width, rule: rule(m, 30, min: 44)
        )
        layout.texts.append(centred(.hint, hint, .regular, ScreenPalette.mist, m, y: y))
        y += hint.height + m.size(60)

        let area = Rect(x: m.margin, y: y, width: width, height: bar.rect.y - m.size(60) - y)
        layout.previewArea = area
        layout.boxes.append(.init(rect: area, color: .black))
        let camera = FittedText.fit(
            status.camera.isDisconnected ? "Camera disconnected: reconnecting..." : "Camera: \(status.camera.label)",
            font: fonts.regular, maxWidth: area.width - 2 * m.margin,
            rule: rule(m, 20, min: 40))
        layout.texts.append(
            ScreenLayout.Text(
                role: .cameraState, text: camera, weight: .regular, color: ScreenPalette.mist,
                frame: Rect(
                    x: area.midX - camera.width / 2, y: area.midY - camera.height / 2, width: camera.width,
                    height: camera.height),
                centred: true))
        layout.statusBar = bar
        return layout
    }

    /// Draws `frame` scaled to fit the ready screen's camera area (black bars around it), with corner
    /// brackets marking where to hold the pass. Cheap enough for every camera frame: nearest-neighbour
    /// scaling straight into the device format through `scaler`'s tables, and a few rectangles.
    public func drawPreview(
        _ frame: GrayFrame, in layout: ScreenLayout, on canvas: inout Canvas, scaler: inout GrayScaler
    ) {
        guard let area = layout.previewArea, !frame.isEmpty else { return }
        let picture = GrayScaler.fitted(width: frame.width, height: frame.height, in: area)
        // The bars around the picture (the "camera" text lies under the picture or here).
        canvas.fill(Rect(x: area.x, y: area.y, width: area.width, height: picture.y - area.y), with: .black)
        canvas.fill(Rect(x: area.x, y: picture.maxY, width: area.width, height: area.maxY - picture.maxY), with: .black)
        canvas.fill(Rect(x: area.x, y: picture.y, width: picture.x - area.x, height: picture.height), with: .black)
        canvas.fill(
            Rect(x: picture.maxX, y: picture.y, width: area.maxX - picture.maxX, height: picture.height), with: .black)
        scaler.draw(frame, in: picture, on: &canvas, mirrored: mirrorsPreview)
        drawTarget(in: picture, unit: Metrics(width: layout.width, height: layout.height).unit, on: &canvas)
    }

    /// Four corner brackets around a centred square: white on a dark outline, visible on any picture.
    func drawTarget(in picture: Rect, unit: Int, on canvas: inout Canvas) {
        let side = min(picture.width, picture.height) * 3 / 5
        let square = Rect(x: picture.midX - side / 2, y: picture.midY - side / 2, width: side, height: side)
        let arm = side / 5
        let thickness = max(3, unit / 110)
        let outline = max(1, thickness / 3)
        for (color, grow) in [(RGBColor(hex: 0x202020), outline), (RGBColor.white, 0)] {
            for corner in 0..<4 {
                let right = corner % 2 == 1
                let bottom = corner >= 2
                let x = right ? square.maxX - arm : square.x
                let y = bottom ? square.maxY - thickness : square.y
                canvas.fill(
                    Rect(x: x - grow, y: y - grow, width: arm + 2 * grow, height: thickness + 2 * grow), with: color)
                let vx = right ? square.maxX - thickness : square.x
                let vy = bottom ? square.maxY - arm : square.y
                canvas.fill(
                    Rect(x: vx - grow, y: vy - grow, width: thickness + 2 * grow, height: arm + 2 * grow), with: color)
            }
        }
    }

    private func centred(
        _ role: ScreenLayout.Role, _ text: FittedText, _ weight: FontWeight, _ color: RGBColor, _ m: Metrics, y: Int
    ) -> ScreenLayout.Text {
        ScreenLayout.Text(
            role: role, text: text, weight: weight, color: color,
            frame: Rect(x: m.width / 2 - text.width / 2, y: y, width: text.width, height: text.height), centred: true)
    }
}
