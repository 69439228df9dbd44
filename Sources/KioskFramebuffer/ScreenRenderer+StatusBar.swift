import KioskCore

import struct Foundation.Date

extension ScreenRenderer {
    /// Door, mode, standalone, online or OFFLINE, pending check-ins, camera state and, with `showsRate` (the ready screen)
    /// while a camera streams, the rate the door processes frames at (`DoorStatus.fps`, measured by the door loop).
    func statusBar(_ status: DoorStatus, _ m: Metrics, field: RGBColor, showsRate: Bool = false)
        -> ScreenLayout.StatusBar
    {
        let background = field.scaled(by: 0.4)
        let text = ScreenPalette.text(on: background)
        let soft = text.blended(over: background, alpha: 190)
        let separator = ("   ·   ", soft)
        var segments: [(text: String, color: RGBColor)] = [
            (status.door, text), separator, (status.mode.rawValue, text), separator,
        ]
        let connectionColor =
            switch status.connection {
            case .online: RGBColor(hex: 0x9BE39B)
            case .offline: ScreenPalette.highlight
            case .standalone: text
            }
        segments.append((status.connection.label, connectionColor))
        if let lan = status.lanLabel {
            segments.append(separator)
            segments.append((lan, text))
        }
        segments.append(separator)
        segments.append(
            (
                "\(status.pendingCheckIns) pending",
                status.pendingCheckIns > 0 && status.connection == .offline ? ScreenPalette.highlight : text
            ))
        if let roster = status.roster.label(now: Date()) {
            segments.append(separator)
            segments.append((roster, status.isRosterCurrent ? text : ScreenPalette.highlight))
        }
        segments.append(separator)
        segments.append(("camera: \(status.camera.label)", text))
        if showsRate, let fps = status.fps, !status.camera.isDisconnected {
            segments.append(separator)
            segments.append(("\(Int(fps.rounded())) fps", text))
        }
        if let warning = status.warning {
            segments.append(separator)
            segments.append((warning, ScreenPalette.highlight))
        }
        let rect = Rect(x: 0, y: m.height - m.statusBarHeight, width: m.width, height: m.statusBarHeight)
        var size = m.size(30)
        let whole = segments.map(\.text).joined()
        while size > 8 && fonts.regular.width(of: whole, size: size) > m.width - 2 * m.margin / 2 { size -= 1 }
        return ScreenLayout.StatusBar(rect: rect, segments: segments, size: size, background: background)
    }
}
