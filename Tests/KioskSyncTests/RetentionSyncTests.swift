import DedicatedThreads
import Foundation
import KioskCore
import KioskStore
import KioskSync
import TestSupport
import Testing

/// The server's retention reaches its kiosks: each heartbeat answer carries the event's purge date (its end plus
/// `serve --retention-days`), the kiosk keeps it, and the first sync round on or after it deletes the guests'
/// names, e-mail addresses and notes there too, keeping the check-ins and counts.
@Suite("Retention on the kiosk, end to end", .serialized)
struct RetentionSyncTests {
    @Test(
        "a kiosk learns the purge date from the server and deletes the roster's personal data once it has passed",
        .enabled(if: LiveProcesses.toolsPresent, "needs openssl and curl"))
    func kioskPurgesAtTheServersDate() async throws {
        try await withTaskExecutorPreference(ThreadExecutor.testServers) { try await purgeAtTheDate() }
    }

    func purgeAtTheDate() async throws {
        let server = try await EndToEndSyncTests.server()
        defer { server.stopWithoutWaiting() }
        let north = try await LiveKioskFolder(door: "North", server: server)
        _ = try await EndToEndSyncTests.enroll(north, server)
        let conf = try KioskConfiguration.parse(
            String(contentsOfFile: north.folder + "/kiosk.conf", encoding: .utf8), file: "kiosk.conf",
            baseDirectory: north.folder)
        let store = try north.openStore()
        let roster = try EndToEndSyncTests.roster()

        // The event ends 2036-12-01T23:00:00Z; the server keeps personal data 30 days (its default) after it.
        _ = try await SyncOnce.run(configuration: conf, store: store)
        let purgeAt = try #require(ISO8601DateFormatter().date(from: "2036-12-31T23:00:00Z"))
        #expect(
            try store.personalDataRetention(event: conf.event)
                == PersonalDataRetentionState(event: conf.event, purgeAt: purgeAt, purgedAt: nil))
        let named = try store.guests(codePrefix: "", event: conf.event, limit: 1000)
        #expect(named.count == (try store.guestCount(event: conf.event)) && named.allSatisfy { !$0.name.isEmpty })
        try north.scanOffline(Array(roster.prefix(3)), at: (0..<3).map { Date().addingTimeInterval(Double($0 - 60)) })
        #expect(try await SyncOnce.run(configuration: conf, store: store).queue.confirmed == 3)
        #expect(try await EndToEndSyncTests.statusJSON(north).personalDataPurgeAt == purgeAt)

        // A round a day before changes nothing; the first round after the date deletes, once.
        let dayBefore = SkewedClock(skew: purgeAt.timeIntervalSinceNow - 86_400)
        _ = try await SyncOnce.run(configuration: conf, store: store, clock: dayBefore)
        #expect(try store.personalDataRetention(event: conf.event)?.purgedAt == nil)
        #expect(try store.searchGuests(prefix: named[0].name, event: conf.event, limit: 5).count >= 1)
        let after = SkewedClock(skew: purgeAt.timeIntervalSinceNow + 60)
        _ = try await SyncOnce.run(configuration: conf, store: store, clock: after)
        let purgedAt = try #require(try store.personalDataRetention(event: conf.event)?.purgedAt)
        #expect(purgedAt >= purgeAt)
        let kept = try store.guests(codePrefix: "", event: conf.event, limit: 1000)
        #expect(kept.count == named.count, "the guests stay countable")
        #expect(kept.allSatisfy { $0.name.isEmpty && $0.email.isEmpty && $0.notes.isEmpty })
        #expect(try store.searchGuests(prefix: named[0].name, event: conf.event, limit: 5).isEmpty)
        #expect(try store.checkIns(event: conf.event).count == 3)

        let status = try await EndToEndSyncTests.statusJSON(north)
        #expect(status.personalDataPurgedAt != nil && status.checkedIn == 3 && status.pending == 0)
        #expect(status.scansByVerdict["personal_data_purged"] == 1)
        // The server kept each check-in once.
        let checkIns = try await EndToEndSyncTests.export(server).filter { $0.record == "check_in" }
        #expect(checkIns.count == 3)
    }
}
