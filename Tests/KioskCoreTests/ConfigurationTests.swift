import Foundation
import PassFormat
import Testing

@testable import KioskCore

@Suite struct ConfigurationTests {
    let minimal = "trusted_key = 1 keys/a.pem\n"

    @Test func parsesEveryKey() throws {
        let text = """
            # a door
            door = "North gate"
            tenant = 7
            event = 4711
            trusted_key = 1 keys/issuer-1.pub.pem
            trusted_key = 2 ed25519:AAAA
            database = state/kiosk.db
            mode = confirm
            source = camera:/dev/kiosk-camera
            display = text
            repeat_window = 2.5s
            replay_fps = 0.2
            idle_fps = 10
            active_fps = 25
            motion_threshold = 6
            quiet_time = 4s
            capture_size = 1280x720
            decoder_passes = full, ZXING:half, zbar:inverted
            decoder_max_side = 1600
            log_level = debug
            """
        let c = try KioskConfiguration.parse(text, file: "k.conf", baseDirectory: "/etc/kiosk")
        #expect(c.door == "North gate")
        #expect(c.tenant == TenantID(7) && c.event == EventID(4711))
        #expect(c.trustedKeys.map(\.id) == [1, 2])
        #expect(c.resolve(c.database) == "/etc/kiosk/state/kiosk.db")
        #expect(c.mode == .confirm)
        #expect(c.source == .camera(device: "/dev/kiosk-camera"))
        #expect(c.repeatWindow == 2.5 && c.effectiveReplayFPS == 0.2)
        #expect(c.idleFPS == 10 && c.activeFPS == 25 && c.quietTime == 4)
        #expect(c.captureWidth == 1280 && c.captureHeight == 720)
        #expect(c.decoder.passes == [.zbar(.full), .zxing(.half), .zbar(.inverted)] && c.decoder.maxSide == 1600)
    }

    @Test func decoderCascadeWithAGateIsParsedAndWrittenBack() throws {
        let c = try KioskConfiguration.parse(
            "trusted_key = 1 k.pem\ndecoder_passes = zxing:full | zbar:full, sharpened\n", file: "kiosk.conf")
        #expect(c.decoder.passes == [.zxing(.full), .zbar(.full), .zbar(.sharpened)])
        #expect(c.decoder.gatedFrom == 1)
        #expect(c.decoder.cascadeText == "zxing:full | zbar:full, zbar:sharpened")
        let plain = try KioskConfiguration.parse("trusted_key = 1 k.pem\ndecoder_passes = full, inverted\n", file: "k")
        #expect(plain.decoder.gatedFrom == nil)
    }

    @Test func theShippedKioskConfHasTheDefaultCascade() throws {
        let text = try String(contentsOfFile: "kiosk.conf", encoding: .utf8)
        let c = try KioskConfiguration.parse(text, file: "kiosk.conf")
        #expect(c.decoder == DecoderSettings(), "kiosk.conf's decoder_passes and decoder_max_side are the defaults")
    }

    @Test(arguments: [
        ("mode = sometimes\n", 1, "'mode' must be 'auto' or 'confirm'"),
        ("\n\nrepeat_window = soon\n", 3, "'repeat_window' must be a number"),
        ("colour = red\n", 1, "unknown key 'colour'"),
        ("door = A\ndoor = B\n", 2, "set twice"),
        ("just words\n", 1, "expected 'key = value'"),
        ("idle_fps = 30\nactive_fps = 15\n", 2, "must not be lower"),
        ("decoder_passes = full, sideways\n", 1, "unknown decoder pass 'sideways'"),
        ("decoder_passes = zxing:full, quirc:full\n", 1, "unknown decoder pass 'quirc:full': write ENGINE:IMAGE"),
        ("decoder_passes = half, zbar:half\n", 1, "decoder pass 'zbar:half' is listed twice"),
        ("decoder_passes = zxing:full | zbar:full | zbar:half\n", 1, "more than one '|'"),
        ("decoder_passes = zxing:full, zbar:full |\n", 1, "needs passes before and after it"),
        ("trusted_key = one\n", 1, "'trusted_key' must be"),
    ])
    func namesFileLineAndProblem(text: String, line: Int, fragment: String) {
        do {
            _ = try KioskConfiguration.parse(text + minimal, file: "kiosk.conf")
            Issue.record("accepted a broken file")
        } catch {
            #expect(error.file == "kiosk.conf")
            #expect(error.line == line)
            #expect(error.message.contains(fragment), "\(error.message)")
        }
    }

    @Test func requiresATrustedKey() {
        #expect(throws: ConfigurationError.self) { try KioskConfiguration.parse("door = A\n", file: "k") }
    }
}
