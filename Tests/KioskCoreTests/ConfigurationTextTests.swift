import Foundation
import PassFormat
import Testing

@testable import KioskCore

/// kiosk.conf as editors and accidents write it: line endings, byte order marks, NUL bytes, other encodings,
/// and numbers no clock or camera can use.
@Suite struct ConfigurationTextTests {
    let body = ["door = North gate", "tenant = 7", "trusted_key = 1 keys/a.pem", "repeat_window = 2s"]

    @Test(arguments: ["\n", "\r\n", "\r"])
    func anyLineEndingReadsTheSameKeys(ending: String) throws {
        let c = try KioskConfiguration.parse(body.joined(separator: ending) + ending, file: "k.conf")
        #expect(c.door == "North gate" && c.tenant == TenantID(7) && c.repeatWindow == 2)
        #expect(c.trustedKeys.first?.source == "keys/a.pem")
    }

    @Test(arguments: ["\n", "\r\n", "\r"])
    func anErrorInACRLFFileNamesItsLine(ending: String) {
        let text = (body + ["mode = sometimes"]).joined(separator: ending) + ending
        #expect(
            throws: ConfigurationError(
                file: "k.conf", line: 5, message: "'mode' must be 'auto' or 'confirm', found 'sometimes'")
        ) {
            try KioskConfiguration.parse(text, file: "k.conf")
        }
    }

    /// Found by the config fuzzer: a '#' or '=' followed by a combining mark is one Character with it.
    @Test func aCommentOrEqualsSignBeforeACombiningMarkStillCounts() throws {
        let text = (body + ["#\u{301} a comment", "door_note\u{301} = x"]).joined(separator: "\n")
        #expect(throws: ConfigurationError.self) { try KioskConfiguration.parse(text, file: "k.conf") }
        let c = try KioskConfiguration.parse((body + ["#\u{301} a comment"]).joined(separator: "\n"), file: "k.conf")
        #expect(c.door == "North gate")
        let named = try KioskConfiguration.parse(
            (body.dropFirst() + ["door =\u{301}Nord"]).joined(separator: "\n"), file: "k.conf")
        #expect(named.door == "\u{301}Nord")
    }

    @Test func aByteOrderMarkIsDropped() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(body.joined(separator: "\r\n").utf8)
        #expect(try KioskConfiguration.parse(bytes: bytes, file: "k.conf").door == "North gate")
    }

    @Test func aNULByteIsRefusedWithItsLine() {
        var bytes = Array((body.joined(separator: "\n") + "\n").utf8)
        bytes.insert(0, at: bytes.firstIndex(of: UInt8(ascii: "g"))!)  // "door = North \0gate"
        do {
            _ = try KioskConfiguration.parse(bytes: bytes, file: "/etc/kiosk/kiosk.conf")
            Issue.record("accepted a NUL byte")
        } catch {
            #expect(error.line == 1)
            #expect(error.description.hasPrefix("/etc/kiosk/kiosk.conf:1: "))
            #expect(error.message.contains("NUL byte (column 14)") && error.message.contains("save the file as UTF-8"))
        }
    }

    @Test func latin1IsRefusedWithItsLineAndColumn() {
        let bytes = Array("tenant = 7\ntrusted_key = 1 a.pem\ndoor = Caf".utf8) + [0xE9] + Array("\n".utf8)
        do {
            _ = try KioskConfiguration.parse(bytes: bytes, file: "kiosk.conf")
            Issue.record("accepted Latin-1")
        } catch {
            #expect(error.line == 3)
            #expect(error.message.contains("not valid UTF-8 (byte 0xE9 at column 11)"), "\(error.message)")
            #expect(error.message.contains("iconv"))
        }
    }

    @Test(arguments: [
        "replay_fps = 1e-300", "replay_fps = nan", "replay_fps = inf", "replay_fps = 0x1p4", "idle_fps = -1",
        "repeat_window = 1e308s", "quiet_time = nan", "verdict_seconds = 0", "motion_threshold = 1e400",
        "capture_size = 640x480x", "capture_size = 99999999999999999999x480", "capture_size = x", "tenant = 0",
        "event = 4294967296", "decoder_max_side = -5", "trusted_key = 65536 a.pem",
    ])
    func outOfRangeNumbersAreRefusedWithTheirLine(line: String) {
        do {
            _ = try KioskConfiguration.parse("trusted_key = 9 b.pem\n" + line + "\n", file: "kiosk.conf")
            Issue.record("accepted \(line)")
        } catch {
            #expect(error.line == 2, "\(error)")
            #expect(error.message.contains("must be"), "\(error.message)")
        }
    }

    @Test func aFileLevelErrorHasNoLineZero() {
        #expect(ConfigurationError(file: "kiosk.conf", line: 0, message: "x").description == "kiosk.conf: x")
    }

    @Test func relativePathsResolveAgainstTheFolder() throws {
        var c = try KioskConfiguration.parse("trusted_key = 1 a.pem\n", file: "k", baseDirectory: "/")
        #expect(c.resolve("kiosk.db") == "/kiosk.db")
        c.baseDirectory = "/srv/door"
        #expect(c.resolve("kiosk.db") == "/srv/door/kiosk.db" && c.resolve("/var/k.db") == "/var/k.db")
    }
}
