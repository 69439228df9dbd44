import Foundation
import Testing

/// What a careless operator types, through the real binaries: relative paths, Windows line endings, values
/// no kiosk accepts. Each is refused with the file or option, what is wrong and what to do, or just works.
@Suite struct OperatorCommandLineTests {
    /// A door folder `<parent>/door` as an operator lays it out by hand, its kiosk.conf with CRLF line endings.
    static func doorFolder(conf extra: String = "") throws -> (parent: String, door: String) {
        let fm = FileManager.default
        let parent = Fixtures.temporaryFolder()
        let door = parent + "/door"
        try fm.createDirectory(atPath: door + "/keys", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: door + "/images", withIntermediateDirectories: true)
        try fm.copyItem(atPath: Fixtures.testImages + "/keys/issuer-1.pub.pem", toPath: door + "/keys/issuer-1.pub.pem")
        try fm.copyItem(atPath: Fixtures.testImages + "/roster.csv", toPath: door + "/roster.csv")
        try fm.copyItem(atPath: Fixtures.testImages + "/001-valid.png", toPath: door + "/images/001-valid.png")
        let lines = [
            "# written on Windows", "door = Side door", "tenant = 7", "event = 4711",
            "trusted_key = 1 keys/issuer-1.pub.pem", "database = kiosk.db", "source = replay:images",
            "display = text", extra, "database_key_file = key/kiosk-db.key",
        ]
        try Data((lines.joined(separator: "\r\n") + "\r\n").utf8).write(to: URL(fileURLWithPath: door + "/kiosk.conf"))
        return (parent, door)
    }

    @Test func aRelativeConfigWorksFromAnyFolderWithCRLFLines() async throws {
        let (parent, door) = try Self.doorFolder()
        let imported = try await Fixtures.run(
            "kioskctl", ["roster", "import", "--config", "kiosk.conf", "--csv", "roster.csv"],
            currentDirectory: door)
        #expect(imported.0 == 0, "\(imported.2)")
        #expect(imported.1.contains("imported 300 guests"))
        #expect(FileManager.default.fileExists(atPath: door + "/kiosk.db"))
        let replay = try await Fixtures.run(
            "kiosk", ["--config", "door/kiosk.conf", "--replay", "door/images"], currentDirectory: parent)
        #expect(replay.0 == 0, "\(replay.2)")
        #expect(replay.1.contains("\"admitted\""), "\(replay.1)")
        let status = try await Fixtures.run("kioskctl", ["status", "--config", "kiosk.conf"], currentDirectory: door)
        #expect(status.0 == 0, "\(status.2)")
        #expect(status.1.contains("door Side door, event 4711: 300 guests, 1 checked in"), "\(status.1)")
        let fromAbove = try await Fixtures.run(
            "kioskctl", ["status", "--config", "./door/kiosk.conf"], currentDirectory: parent)
        #expect(fromAbove.0 == 0 && fromAbove.1.contains("1 checked in"), "\(fromAbove.2)")
    }

    @Test(arguments: ["1e-300", "0", "-1", "nan", "inf", "1e300", "5000"])
    func anImpossibleReplayRateIsRefused(fps: String) async throws {
        let (_, door) = try Self.doorFolder()
        let (code, _, err) = try await Fixtures.run(
            "kiosk", ["--config", door + "/kiosk.conf", "--replay", door + "/images", "--fps=" + fps])
        #expect(code == 64, "\(err)")
        #expect(err.contains("--fps must be a number from 0.1 to 1000"), "\(err)")
    }

    @Test func aNULByteInTheConfigurationIsRefusedWithFileAndLine() async throws {
        let (_, door) = try Self.doorFolder(conf: "door = Side\0door")
        let (code, _, err) = try await Fixtures.run(
            "kiosk", ["--config", door + "/kiosk.conf", "--replay", door + "/images"])
        #expect(code == 64)
        #expect(err.contains("kiosk.conf:9:") && err.contains("NUL byte"), "\(err)")
    }

    @Test func aConfigurationThatIsADeviceIsRefusedAtOnce() async throws {
        let (code, _, err) = try await Fixtures.run("kioskctl", ["status", "--config", "/dev/zero"])
        #expect(code != 0)
        #expect(err.contains("/dev/zero") && err.contains("not a regular file"), "\(err)")
    }

    @Test func issueRefusesWhatNoKioskWouldAccept() async throws {
        let folder = Fixtures.temporaryFolder()
        let keygen = try await Fixtures.run("kioskctl", ["keygen", "--out", folder + "/issuer"])
        #expect(keygen.0 == 0, "\(keygen.2)")
        let base = ["issue", "--key", folder + "/issuer.key.pem", "--tenant", "7", "--event", "4711"]
        let cases: [([String], String)] = [
            (["--url-base", "https://ünï.example/p"], "punycode"),
            (["--url-base", "https://pass.example.org/my pass"], "a space or control character"),
            (["--url-base", "https://" + String(repeating: "a", count: 400)], "at most 375"),
            (["--tenant", "0"], "--tenant must be from 1 to 4294967295"),
            (["--event", "4294967296"], "--event must be from 1 to 4294967295"),
            (["--key-id", "65536"], "--key-id must be from 0 to 65535"),
            (["--module-size", "0"], "--module-size must be from 1 to 64"),
            (["--guest", "nope"], "not a 16-character guest code"),
        ]
        for (options, fragment) in cases {
            let (code, out, err) = try await Fixtures.run("kioskctl", base + options)
            #expect(code == 64, "\(options): \(err)")
            #expect(out.isEmpty && err.contains(fragment), "\(options): \(err)")
        }
        let edge = try await Fixtures.run("kioskctl", base + ["--tenant", "4294967295", "--key-id", "0"])
        #expect(edge.0 == 0, "\(edge.2)")
        #expect(edge.1.hasPrefix("HTTPS://PASS.EXAMPLE.ORG/P/"))
        let keygen70k = try await Fixtures.run("kioskctl", ["keygen", "--out", folder + "/other", "--key-id", "70000"])
        #expect(keygen70k.0 == 64 && keygen70k.2.contains("--key-id must be from 0 to 65535"), "\(keygen70k.2)")
    }

    @Test func demoRefusesAFolderItDidNotMakeAndKeepsItsDatabase() async throws {
        let (_, door) = try Self.doorFolder()
        let before = try #require(FileManager.default.contents(atPath: door + "/kiosk.conf"))
        try Data("real check-ins".utf8).write(to: URL(fileURLWithPath: door + "/kiosk.db"))
        let (code, out, err) = try await Fixtures.run("kiosk-demo", ["--dir", door])
        #expect(code == 64, "\(err)")
        #expect(
            out.isEmpty && err.contains("was not made by 'kiosk-demo'") && err.contains("choose another"), "\(err)")
        #expect(FileManager.default.contents(atPath: door + "/kiosk.db") == Data("real check-ins".utf8))
        #expect(FileManager.default.contents(atPath: door + "/kiosk.conf") == before)
        let few = try await Fixtures.run("kiosk-demo", ["--dir", door + "/new", "--guests", "3"])
        #expect(few.0 == 64 && few.2.contains("--guests must be from 40"), "\(few.2)")
        #expect(!FileManager.default.fileExists(atPath: door + "/new"))
    }

    /// The README's first command end to end: a demo made, made again in place, and replayed. A debug build
    /// renders the door scenes slowly (minutes), so this runs when asked: `KIOSK_SLOW_TESTS=1 swift test ...`.
    @Test(
        .enabled(if: ProcessInfo.processInfo.environment["KIOSK_SLOW_TESTS"] != nil, "set KIOSK_SLOW_TESTS=1 to run it")
    )
    func demoIsMadeReplacedAndReplayed() async throws {
        let parent = Fixtures.temporaryFolder()
        for seed in ["11", "12"] {
            let (code, out, err) = try await Fixtures.run(
                "kiosk-demo", ["--dir", ".demo", "--seed", seed], currentDirectory: parent)
            #expect(code == 0, "\(err)")
            #expect(out.contains("300 guests in .demo/kiosk.db"), "\(out)")
        }
        #expect(FileManager.default.fileExists(atPath: parent + "/.demo/.kioskctl-demo"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent).sorted() == [".demo"])
        let (code, out, err) = try await Fixtures.run(
            "kiosk", ["--config", ".demo/kiosk.conf", "--replay", ".demo/images"],
            currentDirectory: parent)
        #expect(code == 0, "\(err)")
        #expect(out.contains("\"admitted\""))
    }
}
