import Foundation
import GrayImage
import KioskCore
import KioskFramebuffer
import Testing

@Suite struct FramebufferDisplayTests {
    func display(_ layout: PixelLayout = .xrgb8888(width: 640)) -> FramebufferDisplay {
        FramebufferDisplay(width: 640, height: 400, layout: layout, renderer: ScreenFixtures.renderer)
    }

    @Test func verdictFillsTheScreenAndIsPresentedOnce() {
        let d = display()
        d.show(ScreenFixtures.verdict(.notInRoster))
        #expect(d.presentedCount == 1)
        #expect(dominantColour(d.canvas).0 == ScreenPalette.blue)
    }

    @Test func previewDrawsTheCameraPictureOnTheReadyScreen() throws {
        let d = display(.rgb565(width: 640, stride: 640 * 2 + 2))
        d.show(.ready(ScreenFixtures.status))
        let frame = GrayFrame(width: 320, height: 240, fill: 128)
        d.showPreview(frame, status: ScreenFixtures.status)
        #expect(d.presentedCount == 2)
        let area = try #require(
            ScreenFixtures.renderer.layout(.ready(ScreenFixtures.status), width: 640, height: 400).previewArea)
        let centre = d.canvas.color(x: area.midX, y: area.midY)
        #expect(abs(Int(centre.green) - 128) <= 3 && abs(Int(centre.red) - 128) <= 4)
        // The target's corner brackets are white.
        let picture = GrayScaler.fitted(width: 320, height: 240, in: area)
        let side = min(picture.width, picture.height) * 3 / 5
        #expect(d.canvas.color(x: picture.midX - side / 2 + 1, y: picture.midY - side / 2 + 1) == .white)
    }

    @Test func previewWaitsWhileAVerdictIsUp() {
        let d = display()
        d.show(ScreenFixtures.verdict(.admitted(ScreenFixtures.ada, arrived: 1)))
        let before = d.canvas.bytes
        d.showPreview(GrayFrame(width: 64, height: 48, fill: 200), status: ScreenFixtures.status)
        #expect(d.presentedCount == 1)
        #expect(d.canvas.bytes == before)
        // Back to ready: the recent frame is shown at once.
        d.show(.ready(ScreenFixtures.status))
        let area = ScreenFixtures.renderer.layout(.ready(ScreenFixtures.status), width: 640, height: 400).previewArea!
        #expect(d.canvas.color(x: area.midX, y: area.midY) == RGBColor(red: 200, green: 200, blue: 200))
    }

    @Test func statusChangeRedrawsTheStatusLine() {
        let d = display()
        let frame = GrayFrame(width: 64, height: 48, fill: 90)
        d.showPreview(frame, status: ScreenFixtures.status)
        let before = d.canvas.bytes
        var online = ScreenFixtures.status
        online.connection = .online
        online.pendingCheckIns = 0
        d.showPreview(frame, status: online)
        #expect(d.presentedCount == 2)
        #expect(d.canvas.bytes != before)
        #expect(d.lastScreen == .ready(online))
    }

    @Test func missingDeviceNamesTheCallAndErrno() {
        #expect(throws: FramebufferError(path: "/nonexistent/fb0", reason: .system(call: "open", errno: ENOENT))) {
            _ = try FramebufferDevice(path: "/nonexistent/fb0")
        }
        do {
            _ = try FramebufferDevice(path: "/dev/null")
            Issue.record("/dev/null is no framebuffer")
        } catch {
            #expect(error.reason == .system(call: "FBIOGET_VSCREENINFO", errno: ENOTTY))
            #expect(error.description.hasPrefix("FBIOGET_VSCREENINFO on /dev/null failed: "))
        }
    }

    @Test func missingFontNamesTheFileAndThePackage() {
        let fonts = FontConfiguration(
            regularPath: "/nonexistent/DejaVuSans.ttf", boldPath: FontConfiguration.dejaVu.boldPath,
            package: "fonts-dejavu-core")
        do {
            _ = try ScreenRenderer(fonts: fonts)
            Issue.record("loaded a missing font")
        } catch {
            #expect(error.reason == .fontMissing(package: "fonts-dejavu-core"))
            #expect(
                error.description
                    == "font file /nonexistent/DejaVuSans.ttf not found: install the Debian package fonts-dejavu-core (apt-get install fonts-dejavu-core)"
            )
        }
    }

    @Test func textConsoleUnbindsOnlyTheFramebufferConsole() throws {
        let root = NSTemporaryDirectory() + "vtconsole-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        for (console, name) in [("vtcon0", "(S) dummy device\n"), ("vtcon1", "(M) frame buffer device\n")] {
            let dir = "\(root)/class/vtconsole/\(console)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try name.write(toFile: "\(dir)/name", atomically: true, encoding: .utf8)
            try "1\n".write(toFile: "\(dir)/bind", atomically: true, encoding: .utf8)
        }
        let problems = TextConsole.release(sysfs: root)
        #expect(try String(contentsOfFile: "\(root)/class/vtconsole/vtcon1/bind", encoding: .utf8).hasPrefix("0"))
        #expect(try String(contentsOfFile: "\(root)/class/vtconsole/vtcon0/bind", encoding: .utf8) == "1\n")
        #expect(problems.count == 1 && problems[0].contains("cursor_blink"), "\(problems)")
        #expect(!TextConsole.release(sysfs: "/nonexistent").isEmpty)
    }
}
