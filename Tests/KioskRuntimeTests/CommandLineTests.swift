import Foundation
import GrayImage
import ImageFiles
import KioskCore
import KioskScenes
import Testing

/// The executables as an operator runs them.
@Suite struct CommandLineTests {
    @Test func kioskReplayPrintsOneJSONLinePerVerdict() async throws {
        let folder = Fixtures.temporaryFolder()
        // Use a private database so the test does not touch the demo's.
        let db = folder + "/kiosk.db"
        let conf = try String(contentsOfFile: Fixtures.configPath, encoding: .utf8)
            .replacingOccurrences(of: "database = .kiosk/kiosk.db", with: "database = \(db)")
            .replacingOccurrences(of: "test-images/", with: Fixtures.testImages + "/")
        try conf.write(toFile: folder + "/kiosk.conf", atomically: true, encoding: .utf8)
        let imported = try await Fixtures.run(
            "kioskctl",
            ["roster", "import", "--config", folder + "/kiosk.conf", "--csv", Fixtures.testImages + "/roster.csv"])
        #expect(imported.0 == 0, "\(imported.2)")
        #expect(imported.1.contains("imported 300 guests"))
        let (code, out, stderr) = try await Fixtures.run(
            "kiosk", ["--config", folder + "/kiosk.conf", "--replay", Fixtures.testImages])
        #expect(code == 0, "\(stderr)")
        let lines = out.split(separator: "\n")
        let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let manifest = try Fixtures.manifest()
        #expect(objects.count == manifest.entries.flatMap(\.verdicts).count)
        #expect(objects.allSatisfy { $0?["file"] is String && $0?["verdict"] is String })
        #expect(stderr.contains("WELCOME") && stderr.contains("NOT VALID HERE"))
    }

    @Test func decodePrintsLikeZbarimgAndExitsByResult() async throws {
        let manifest = try Fixtures.manifest()
        let valid = manifest.entries.first { $0.file.hasPrefix("001") }!
        let one = try await Fixtures.run("kioskctl", ["decode", "test-images/" + valid.file])
        #expect(one.0 == 0)
        #expect(one.1 == "QR-Code:\(valid.codes[0])\n")
        let two = try await Fixtures.run(
            "kioskctl", ["decode", "test-images/" + valid.file, "test-images/009-no-code.png"])
        #expect(two.0 == 0)
        #expect(two.1 == "test-images/\(valid.file):QR-Code:\(valid.codes[0])\n")
        let none = try await Fixtures.run("kioskctl", ["decode", "test-images/009-no-code.png"])
        #expect(none.0 == 4 && none.1.isEmpty)
        let folder = Fixtures.temporaryFolder()
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: folder + "/bad.jpg"))
        let bad = try await Fixtures.run("kioskctl", ["decode", folder + "/bad.jpg"])
        #expect(bad.0 == 2)
        #expect(bad.2.contains("bad.jpg"))
    }

    @Test func decodeUsesTheCascadeOfTheGivenConfiguration() async throws {
        let manifest = try Fixtures.manifest()
        let valid = manifest.entries.first { $0.file.hasPrefix("001") }!
        let folder = Fixtures.temporaryFolder()
        // Light-on-dark: the default cascade has passes for it; zbar on the frame as it is does not read it.
        let frame = try ImageFile.read(path: "test-images/" + valid.file)
        let inverted = GrayFrame(width: frame.width, height: frame.height, pixels: frame.pixels.map { ~$0 })
        try ImageFile.writePNG(inverted, to: folder + "/inverted.png")
        try "trusted_key = 1 issuer.pem\ndecoder_passes = zbar:full\n".write(
            toFile: folder + "/kiosk.conf", atomically: true, encoding: .utf8)
        let byDefault = try await Fixtures.run("kioskctl", ["decode", folder + "/inverted.png"])
        #expect(byDefault.0 == 0 && byDefault.1 == "QR-Code:\(valid.codes[0])\n")
        let zbarOnly = try await Fixtures.run(
            "kioskctl", ["decode", "--config", folder + "/kiosk.conf", folder + "/inverted.png"])
        #expect(zbarOnly.0 == 4 && zbarOnly.1.isEmpty)
        try "trusted_key = 1 issuer.pem\ndecoder_passes = zbar:full, zbar:inverted\n".write(
            toFile: folder + "/kiosk.conf", atomically: true, encoding: .utf8)
        let withInverted = try await Fixtures.run(
            "kioskctl", ["decode", "--config", folder + "/kiosk.conf", folder + "/inverted.png"])
        #expect(withInverted.0 == 0 && withInverted.1 == "QR-Code:\(valid.codes[0])\n")
        try "trusted_key = 1 issuer.pem\ndecoder_passes = zbar:full, zxing:sideways\n".write(
            toFile: folder + "/kiosk.conf", atomically: true, encoding: .utf8)
        let broken = try await Fixtures.run(
            "kioskctl", ["decode", "--config", folder + "/kiosk.conf", folder + "/inverted.png"])
        #expect(broken.0 == 1 && broken.2.contains("kiosk.conf:2:") && broken.2.contains("zxing:sideways"))
    }

    @Test func aBrokenConfigurationStopsTheKioskWithFileAndLine() async throws {
        let folder = Fixtures.temporaryFolder()
        try "trusted_key = 1 x.pem\nrepeat_window = later\n".write(
            toFile: folder + "/kiosk.conf", atomically: true, encoding: .utf8)
        let (code, _, err) = try await Fixtures.run(
            "kiosk", ["--config", folder + "/kiosk.conf", "--replay", Fixtures.testImages])
        #expect(code != 0)
        #expect(err.contains("kiosk.conf:2:") && err.contains("repeat_window"))
    }

    @Test func issueWritesAPassThatTheDecoderReadsBack() async throws {
        let folder = Fixtures.temporaryFolder()
        let keygen = try await Fixtures.run("kioskctl", ["keygen", "--out", folder + "/issuer", "--key-id", "3"])
        #expect(keygen.0 == 0, "\(keygen.2)")
        let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/issuer.key.pem")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let issued = try await Fixtures.run(
            "kioskctl",
            [
                "issue", "--key", folder + "/issuer.key.pem", "--key-id", "3", "--tenant", "7",
                "--event", "4711", "--png", folder + "/pass.png",
            ])
        #expect(issued.0 == 0, "\(issued.2)")
        let url = issued.1.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(url.hasPrefix("HTTPS://PASS.EXAMPLE.ORG/P/"))
        let version = Int(issued.2.split(separator: "QR version ").last?.split(separator: ",").first ?? "") ?? 99
        #expect(version <= 11)
        let decoded = try await Fixtures.run("kioskctl", ["decode", folder + "/pass.png"])
        #expect(decoded.1 == "QR-Code:\(url)\n")
    }
}
