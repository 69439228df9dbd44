import GrayImage
import KioskCore
import KioskFramebuffer
import Testing

@Suite struct PixelLayoutTests {
    let colours: [RGBColor] = [
        .black, .white, RGBColor(hex: 0xFF0000), RGBColor(hex: 0x00FF00), RGBColor(hex: 0x0000FF),
        RGBColor(hex: 0xFFB300),
    ]

    @Test func xrgb8888PacksAsBGRXBytes() {
        let layout = PixelLayout.xrgb8888(width: 1)
        #expect(layout.pack(RGBColor(hex: 0xFF0000)) == 0x00FF_0000)
        #expect(layout.pack(RGBColor(hex: 0x123456)) == 0x0012_3456)
        var canvas = Canvas(width: 1, height: 1, layout: layout)
        canvas.fill(canvas.bounds, with: RGBColor(hex: 0x123456))
        #expect(canvas.bytes == [0x56, 0x34, 0x12, 0x00])
    }

    @Test func abgrWithAlphaIsOpaque() {
        let layout = PixelLayout(
            bitsPerPixel: 32, red: .init(offset: 0, length: 8), green: .init(offset: 8, length: 8),
            blue: .init(offset: 16, length: 8), alpha: .init(offset: 24, length: 8), stride: 4)
        #expect(layout.pack(RGBColor(hex: 0x123456)) == 0xFF56_3412)
        for c in colours { #expect(layout.unpack(layout.pack(c)) == c) }
    }

    @Test func rgb565PacksTheBitfields() {
        let layout = PixelLayout.rgb565(width: 4)
        #expect(layout.pack(.white) == 0xFFFF)
        #expect(layout.pack(RGBColor(hex: 0xFF0000)) == 0xF800)
        #expect(layout.pack(RGBColor(hex: 0x00FF00)) == 0x07E0)
        #expect(layout.pack(RGBColor(hex: 0x0000FF)) == 0x001F)
        for c in colours.prefix(5) { #expect(layout.unpack(layout.pack(c)) == c) }
        let odd = RGBColor(red: 200, green: 100, blue: 50)
        let back = layout.unpack(layout.pack(odd))
        #expect(abs(Int(back.red) - 200) <= 4 && abs(Int(back.green) - 100) <= 2 && abs(Int(back.blue) - 50) <= 4)
    }

    @Test func bgr565HasBlueOnTop() {
        let layout = PixelLayout(
            bitsPerPixel: 16, red: .init(offset: 0, length: 5), green: .init(offset: 5, length: 6),
            blue: .init(offset: 11, length: 5), stride: 2)
        #expect(layout.pack(RGBColor(hex: 0x0000FF)) == 0xF800)
        #expect(layout.pack(RGBColor(hex: 0xFF0000)) == 0x001F)
    }

    /// Known colours packed into canvases with odd strides read back the same; padding bytes stay untouched.
    @Test(arguments: [
        PixelLayout.xrgb8888(width: 7, stride: 7 * 4 + 3),
        PixelLayout(
            bitsPerPixel: 32, red: .init(offset: 0, length: 8), green: .init(offset: 8, length: 8),
            blue: .init(offset: 16, length: 8), stride: 7 * 4 + 5),
        PixelLayout.rgb565(width: 7, stride: 7 * 2 + 1),
        PixelLayout(
            bitsPerPixel: 16, red: .init(offset: 0, length: 5), green: .init(offset: 5, length: 6),
            blue: .init(offset: 11, length: 5), stride: 7 * 2 + 3),
        PixelLayout(
            bitsPerPixel: 24, red: .init(offset: 16, length: 8), green: .init(offset: 8, length: 8),
            blue: .init(offset: 0, length: 8), stride: 7 * 3 + 2),
    ])
    func canvasWithOddStrideReadsBackWhatWasPacked(_ layout: PixelLayout) {
        var canvas = Canvas(width: 7, height: 5, layout: layout)
        for (i, colour) in colours.enumerated() {
            canvas.fill(Rect(x: i, y: 1, width: 1, height: 3), with: colour)
        }
        for (i, colour) in colours.enumerated() where i < 5 || layout.bitsPerPixel != 16 {
            #expect(canvas.color(x: i, y: 2) == colour, "\(layout): colour \(i)")
        }
        #expect(canvas.color(x: 6, y: 2) == .black)
        #expect(canvas.color(x: 0, y: 0) == .black && canvas.color(x: 0, y: 4) == .black)
        let rowBytes = 7 * layout.bytesPerPixel
        for y in 0..<5 {
            #expect(
                canvas.bytes[(y * layout.stride + rowBytes)..<((y + 1) * layout.stride)].allSatisfy { $0 == 0 },
                "padding of row \(y)")
        }
        let rgb = canvas.rgbPixels()
        #expect(rgb.count == 7 * 5 * 3)
        #expect(Array(rgb[(2 * 7 + 3) * 3..<(2 * 7 + 4) * 3]) == [0, 255, 0])
    }

    @Test func fillClipsToTheCanvas() {
        var canvas = Canvas(width: 4, height: 4, layout: .xrgb8888(width: 4))
        canvas.fill(Rect(x: -10, y: 2, width: 12, height: 100), with: .white)
        #expect(
            canvas.color(x: 1, y: 3) == .white && canvas.color(x: 2, y: 3) == .black
                && canvas.color(x: 0, y: 1) == .black)
    }

    @Test func greyFramesScaleByNearestNeighbourAndMirror() {
        let frame = GrayFrame(width: 2, height: 2, pixels: [10, 20, 30, 40])
        for layout in [PixelLayout.xrgb8888(width: 6, stride: 27), .rgb565(width: 6, stride: 13)] {
            var canvas = Canvas(width: 6, height: 6, layout: layout)
            var scaler = GrayScaler()
            scaler.draw(frame, in: Rect(x: 1, y: 1, width: 4, height: 4), on: &canvas)
            func grey(_ x: Int, _ y: Int) -> Int { Int(canvas.color(x: x, y: y).green) }
            let tolerance = layout.bitsPerPixel == 16 ? 3 : 0
            #expect(abs(grey(1, 1) - 10) <= tolerance && abs(grey(2, 2) - 10) <= tolerance)
            #expect(
                abs(grey(4, 1) - 20) <= tolerance && abs(grey(1, 4) - 30) <= tolerance
                    && abs(grey(4, 4) - 40) <= tolerance)
            #expect(grey(0, 0) == 0 && grey(5, 5) == 0)
            scaler.draw(frame, in: Rect(x: 1, y: 1, width: 4, height: 4), on: &canvas, mirrored: true)
            #expect(abs(grey(1, 1) - 20) <= tolerance && abs(grey(4, 4) - 30) <= tolerance)
        }
    }

    @Test func fittedKeepsTheAspectRatio() {
        #expect(
            GrayScaler.fitted(width: 640, height: 480, in: Rect(x: 10, y: 20, width: 1000, height: 600))
                == Rect(x: 110, y: 20, width: 800, height: 600))
        #expect(
            GrayScaler.fitted(width: 100, height: 10, in: Rect(x: 0, y: 0, width: 50, height: 50))
                == Rect(x: 0, y: 22, width: 50, height: 5))
    }

    /// The same screens drawn in 16 bpp and 32 bpp look the same (within RGB565's precision).
    @Test(arguments: ["admitted", "already-checked-in", "manual-entry", "ready"])
    func sameScreenInBothDepths(_ name: String) {
        let screen = ScreenFixtures.screens.first { $0.name == name }!.screen
        let deep = ScreenFixtures.renderer.render(screen, width: 320, height: 200, preview: ScreenFixtures.preview)
        let shallow = ScreenFixtures.renderer.render(
            screen, width: 320, height: 200, pixelLayout: .rgb565(width: 320, stride: 320 * 2 + 6),
            preview: ScreenFixtures.preview)
        let a = deep.rgbPixels()
        let b = shallow.rgbPixels()
        let worst = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 10, "\(name): a channel differs by \(worst)")
    }
}
