import Foundation
import ImageFiles
import KioskCore
import KioskFramebuffer
import Testing

/// Each screen at 1280x800 against its reference picture in `ReferenceScreens/`. Set
/// `KIOSK_UPDATE_SCREENS=1` to (re)write the references after an intended change, then look at them.
/// Every run also writes the pictures to `$KIOSK_SCREENS_OUTPUT` (default `/tmp/kiosk-screens`).
@Suite(.serialized) struct ReferenceScreenTests {
    static let referenceDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("ReferenceScreens").path
    static let outputDirectory = ProcessInfo.processInfo.environment["KIOSK_SCREENS_OUTPUT"] ?? "/tmp/kiosk-screens"
    static let updating = ProcessInfo.processInfo.environment["KIOSK_UPDATE_SCREENS"] == "1"

    @Test(arguments: ScreenFixtures.screens.map(\.name))
    func matchesReference(_ name: String) throws {
        let screen = ScreenFixtures.screens.first { $0.name == name }!.screen
        let png = try ScreenFixtures.renderer.renderPNG(
            screen, width: ScreenFixtures.width, height: ScreenFixtures.height, preview: ScreenFixtures.preview)
        try? FileManager.default.createDirectory(atPath: Self.outputDirectory, withIntermediateDirectories: true)
        try ImageFile.writeRGBPNG(png: png, to: "\(Self.outputDirectory)/\(name).png")

        let referencePath = "\(Self.referenceDirectory)/\(name).png"
        if Self.updating {
            try ImageFile.writeRGBPNG(png: png, to: referencePath)
            return
        }
        guard FileManager.default.fileExists(atPath: referencePath) else {
            Issue.record("no reference picture \(referencePath): run the tests once with KIOSK_UPDATE_SCREENS=1")
            return
        }
        let reference = try ImageFile.readRGBPNG(path: referencePath)
        let rendered = try ImageFile.decodeRGBPNG(data: png, name: name)
        #expect(reference.width == rendered.width && reference.height == rendered.height)
        guard reference.pixels.count == rendered.pixels.count else { return }
        // Fonts and FreeType versions differ a little between machines: allow 0.5 % of pixels to differ
        // by more than 16 in some channel.
        var differing = 0
        for i in stride(from: 0, to: reference.pixels.count, by: 3) {
            let d = max(
                abs(Int(reference.pixels[i]) - Int(rendered.pixels[i])),
                abs(Int(reference.pixels[i + 1]) - Int(rendered.pixels[i + 1])),
                abs(Int(reference.pixels[i + 2]) - Int(rendered.pixels[i + 2])))
            if d > 16 { differing += 1 }
        }
        let share = Double(differing) / Double(reference.width * reference.height)
        #expect(
            share < 0.005,
            "\(name): \(differing) pixels (\(share * 100) %) differ from \(referencePath); see \(Self.outputDirectory)/\(name).png"
        )
    }
}

extension ImageFile {
    /// Writes already-encoded PNG bytes (decoded and re-encoded, which also checks them).
    static func writeRGBPNG(png: [UInt8], to path: String) throws {
        let image = try decodeRGBPNG(data: png, name: path)
        try writeRGBPNG(width: image.width, height: image.height, pixels: image.pixels, to: path)
    }
}
