import Foundation
import KioskCore
import KioskFramebuffer
import Testing

/// Prints how long a verdict screen and a preview frame take at 1280x800, 32 bpp. Informational: run in a
/// release build (`swift test -c release --filter TimingTests`) for numbers that mean anything.
@Suite struct TimingTests {
    @Test func renderAndPreviewTimes() {
        let renderer = ScreenFixtures.renderer
        let layout = PixelLayout.xrgb8888(width: 1280)
        var canvas = Canvas(width: 1280, height: 800, layout: layout)
        let clock = ContinuousClock()
        let screens = ScreenFixtures.screens.map(\.screen).filter { if case .verdict = $0 { true } else { false } }
        renderer.render(screens[0], into: &canvas)  // glyph caches warm
        let rounds = 20
        let verdictTime =
            clock.measure {
                for i in 0..<rounds { renderer.render(screens[i % screens.count], into: &canvas) }
            } / rounds

        let display = FramebufferDisplay(width: 1280, height: 800, layout: layout, renderer: renderer)
        display.showPreview(ScreenFixtures.preview, status: ScreenFixtures.status)
        let frames = 120
        let previewTime =
            clock.measure {
                for _ in 0..<frames { display.showPreview(ScreenFixtures.preview, status: ScreenFixtures.status) }
            } / frames

        // What `FramebufferDevice.present` adds: one memcpy of the whole screen.
        let target = UnsafeMutableRawPointer.allocate(byteCount: canvas.bytes.count, alignment: 64)
        defer { target.deallocate() }
        let copyTime =
            clock.measure {
                for _ in 0..<frames { canvas.bytes.withUnsafeBytes { _ = memcpy(target, $0.baseAddress!, $0.count) } }
            } / frames
        print(
            "1280x800 32 bpp: verdict screen \(verdictTime), preview frame \(previewTime), whole-screen memcpy \(copyTime)"
        )
        #expect(display.presentedCount == frames + 1)
    }
}
