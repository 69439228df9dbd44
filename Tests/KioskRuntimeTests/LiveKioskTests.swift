import DedicatedThreads
import Foundation
import KioskCore
import KioskRuntime
import KioskStore
import TestSupport
import Testing

/// The kiosk running live (no --replay): frames from the configured source at its rate, keys from standard
/// input, graceful stop on SIGTERM.
@Suite struct LiveKioskTests {
    /// A folder with a kiosk.conf whose source replays one valid pass at 10 fps, and its imported roster.
    static func liveDoor() async throws -> String {
        let folder = Fixtures.temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder + "/frames", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Fixtures.testImages + "/001-valid.png", toPath: folder + "/frames/a.png")
        let conf = try String(contentsOfFile: Fixtures.configPath, encoding: .utf8)
            .replacingOccurrences(of: "database = .kiosk/kiosk.db", with: "database = \(folder)/kiosk.db")
            .replacingOccurrences(of: "source = replay:test-images", with: "source = replay:\(folder)/frames")
            .replacingOccurrences(of: "replay_fps = 0.2", with: "replay_fps = 10")
            .replacingOccurrences(of: "test-images/", with: Fixtures.testImages + "/")
        try conf.write(toFile: folder + "/kiosk.conf", atomically: true, encoding: .utf8)
        let imported = try await Fixtures.run(
            "kioskctl",
            ["roster", "import", "--config", folder + "/kiosk.conf", "--csv", Fixtures.testImages + "/roster.csv"])
        #expect(imported.0 == 0, "\(imported.2)")
        return folder
    }

    @Test func typedCodesAndReplayedFramesCheckGuestsInUntilSIGTERM() async throws {
        // It waits on the kiosk (its screen, the watchdog socket) by blocking: on threads of its own, not the
        // 2-thread cooperative pool that the rest of the suite, and swift-subprocess's pipe reads, need.
        try await withTaskExecutorPreference(ThreadExecutor.blockingWaits) {
            let folder = try await Self.liveDoor()
            let store = try SQLiteDoorStore(
                configuration: ConfigurationFile.load(folder + "/kiosk.conf"), mode: .openExisting)
            let typed = try store.searchGuests(prefix: "", event: .init(4711), limit: 300).filter {
                $0.status == .active
            }
            .last!

            let input = Pipe()
            let output = Pipe()
            let errors = Pipe()
            let p = try ChildProcess.start(
                "kiosk", ["--config", folder + "/kiosk.conf"], input: input, output: output, errors: errors)
            let text = PipeText(errors)
            // The replayed frames' guest first, then the typed code: each step waits for the screen to show it.
            #expect(text.wait(timeout: 60) { $0.contains("WELCOME") }, "no camera check-in: \(text.text)")
            input.fileHandleForWriting.write(Data((typed.guest.displayCode + "\n").utf8))
            #expect(text.wait(timeout: 60) { $0.contains(typed.name) }, "the typed code was not decided: \(text.text)")
            p.terminate()  // SIGTERM: graceful shutdown
            await p.waitUntilExit()
            let screen = text.whole()
            #expect(p.terminationReason == .exit && p.terminationStatus == 0, "\(screen)")
            let checkIns = try store.checkIns(event: .init(4711))
            #expect(checkIns.count == 2, "\(screen)")
            #expect(checkIns.contains { $0.guest == typed.guest && $0.source == .manual })
            #expect(checkIns.contains { $0.source == .camera })
            #expect(screen.contains("WELCOME") && screen.contains(typed.name))
        }
    }

    /// Under systemd (Type=notify, WatchdogSec) a kiosk whose frames come from a replayed folder feeds the
    /// watchdog too: the door loop answers the watchdog's ticks after the replay has ended. SIGTERM stops every
    /// service (the keyboard's thread included, its input still open) well within the shutdown limit.
    @Test func aReplayingKioskFeedsTheWatchdogAndStopsGracefully() async throws {
        // It waits on the kiosk (its screen, the watchdog socket) by blocking: on threads of its own, not the
        // 2-thread cooperative pool that the rest of the suite, and swift-subprocess's pipe reads, need.
        try await withTaskExecutorPreference(ThreadExecutor.blockingWaits) {
            let folder = try await Self.liveDoor()

            let systemd = try NotifySocket()
            let input = Pipe()
            let errors = Pipe()
            let p = try ChildProcess.start(
                "kiosk", ["--config", folder + "/kiosk.conf"],
                // WATCHDOG_USEC 3 s, a fifth of kiosk.service's WatchdogSec: a door loop may stay silent 1.5 s. With
                // 0.6 s (0.3 s of silence) a debug kiosk decoding its first frame on a loaded 2-core machine missed
                // it twice in CI-like runs; that said nothing about the replay.
                environment: ["NOTIFY_SOCKET": systemd.path, "WATCHDOG_USEC": "3000000"], input: input, errors: errors)
            #expect(systemd.receive(timeout: 20) == "READY=1")
            let pings = systemd.collect(for: 4)
            // A ping every second; the one-image replay ended long before the last of them.
            #expect(pings.filter { $0 == "WATCHDOG=1" }.count >= 3, "\(pings)")
            let asked = Date()
            p.terminate()
            await p.waitUntilExit()
            let stopping = Date().timeIntervalSince(asked)
            let written = await errors.fileHandleForReading.readDataToEndOfFile()
            let log = String(decoding: written, as: UTF8.self)
            #expect(p.terminationReason == .exit && p.terminationStatus == 0, "\(log)")
            #expect(stopping < 3, "took \(stopping) s to stop")
            #expect(log.contains("WELCOME"))
            #expect(!log.contains("not feeding the watchdog"))
        }
    }
}
