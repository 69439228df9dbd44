import DedicatedThreads
import Foundation
import KioskCore
import KioskStore
import KioskSync
import TestSupport
import Testing
import WireAPI

/// The kiosk's clock, five minutes fast (or any offset): scans are stamped with it, and the sync measures it.
struct SkewedClock: SyncClock {
    var skew: TimeInterval
    func now() -> Date { Date().addingTimeInterval(skew) }
    func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}

/// The seeds' clock-skew and second-offline-window probes, against a real `checkin-server` over HTTPS.
@Suite("Clock skew and a second offline window, end to end", .serialized)
struct ClockSkewSyncTests {
    @Test(
        "a kiosk five minutes fast: the server keeps its scan times and orders by the corrected ones; a second offline window replays in order",
        .enabled(if: LiveProcesses.toolsPresent, "needs openssl and curl"))
    func fiveMinutesFastAndASecondWindow() async throws {
        // The kiosk's exchanges on threads of their own: on the cooperative pool, beside tests that block it
        // waiting for child processes, an answer sat unread for half a minute, and the offset measured at it
        // was off by half that (within its bound, but the bound was wide).
        try await withTaskExecutorPreference(ThreadExecutor.testServers) { try await fiveMinutesFast() }
    }

    func fiveMinutesFast() async throws {
        let server = try await EndToEndSyncTests.server()
        defer { server.stopWithoutWaiting() }
        let north = try await LiveKioskFolder(door: "North", server: server)
        _ = try await EndToEndSyncTests.enroll(north, server)
        let clock = SkewedClock(skew: 300)
        let conf = try KioskConfiguration.parse(
            String(contentsOfFile: north.folder + "/kiosk.conf", encoding: .utf8), file: "kiosk.conf",
            baseDirectory: north.folder)
        let store = try north.openStore()
        let roster = try EndToEndSyncTests.roster()

        // First window: one contact with the server (the kiosk learns its offset), then offline scans an hour
        // ago by the kiosk's fast clock, uploaded now.
        _ = try await SyncOnce.run(configuration: conf, store: store, clock: clock)
        let contact = try #require(try store.lastContact())
        let offset = contact.clockOffsetMilliseconds
        let bound = try #require(contact.clockOffsetUncertaintyMilliseconds)
        // Measured against the middle of the exchange: off by at most half its round trip, the bound the kiosk
        // keeps with it (the most precise exchange's), nowhere near the 300 s.
        #expect(abs(offset + 300_000) <= bound, "the kiosk measured its clock 300 s fast: \(offset) ± \(bound) ms")
        #expect(bound < 30_000, "a bound of \(bound) ms")
        let first = Array(roster.prefix(5))
        let firstTimes = first.indices.map {
            clock.now().addingTimeInterval(-3600 + Double($0) * 10)
        }
        try north.scanOffline(first, at: firstTimes)
        let sent = try await SyncOnce.run(configuration: conf, store: store, clock: clock)
        #expect(sent.queue.confirmed == 5 && sent.queue.pending == 0)

        // Second window: the server goes away, five more scans, then it is back.
        await server.stop()
        let second = Array(roster[5..<10])
        let secondTimes = second.indices.map {
            clock.now().addingTimeInterval(-60 + Double($0) * 5)
        }
        try north.scanOffline(second, at: secondTimes)
        await #expect(throws: SyncError.self) {
            try await SyncOnce.run(configuration: conf, store: store, clock: clock)
        }
        #expect(try store.pendingCount() == 5)
        try await server.start()
        let again = try await SyncOnce.run(configuration: conf, store: store, clock: clock)
        #expect(again.queue.confirmed == 5 && again.queue.pending == 0)

        let checkIns = try await EndToEndSyncTests.export(server).filter { $0.record == "check_in" }
            .sorted { $0.correctedAt < $1.correctedAt }
        #expect(checkIns.map(\.guestId) == (first + second).map(\.text), "each once, in scan order")
        #expect(
            checkIns.map(\.scannedAt.millisecondsSince1970) == (firstTimes + secondTimes).map(\.millisecondsSince1970),
            "the device's own times are kept")
        // Every upload carries the kiosk's best offset so far: a later measure replaces it only when its own bound
        // is no wider than the kept one's grown by drift (a few milliseconds over this test), so each
        // correction is within the first run's bound, and a second to spare.
        for line in checkIns {
            let correction = line.correctedAt.timeIntervalSince(line.scannedAt)
            #expect(abs(correction + 300) * 1000 <= Double(bound) + 1000, "corrected by the offset: \(correction) s")
        }
        // By the device's clock the second window's scans lie in the server's future; corrected, none does.
        #expect(checkIns.suffix(5).allSatisfy { $0.scannedAt > $0.receivedAt })
        #expect(checkIns.allSatisfy { $0.correctedAt <= $0.receivedAt })
    }
}
