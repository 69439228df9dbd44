import CheckinCore
import CheckinServer
import Foundation
import GRDB
import KioskCore
import PostgresTestSupport
import Testing

@testable import CheckinAdmin
@testable import CheckinSQLite

/// A batch applied in one call (`apply(_:event:device:receivedAt:)`): per-item answers in scan order, and on
/// SQLite one transaction with a savepoint per item, so a failing item loses none of the answers before it.
@Suite("Batch apply", .dropsTestDatabases)
struct BatchApplyTests {
    static func scans(_ device: Device, _ guests: [Guest], at time: Date) -> [Scan] {
        guests.enumerated().map { i, guest in
            Scan(
                key: ScanKey(deviceId: device.id, epoch: device.queueEpoch, sequence: Int64(i + 1)), guest: guest.id,
                kind: .checkIn, deviceTime: time, clockOffsetMs: 0, arrived: 1, door: "North", source: "camera")
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func aBatchAnswersEachItemInOrderAndARepeatGetsTheStoredAnswers(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, guests) = try await h.event(guests: 4)
        let device = try await h.enrolDirectly(event: event)
        // The same guest twice in one batch: the second scan is superseded by the first.
        var scans = Self.scans(device, guests, at: h.clock.now())
        scans.append(
            Scan(
                key: ScanKey(deviceId: device.id, epoch: device.queueEpoch, sequence: 5), guest: guests[0].id,
                kind: .checkIn, deviceTime: h.clock.now().addingTimeInterval(5), clockOffsetMs: 0, arrived: 1,
                door: "North", source: "camera"))
        let clock = h.clock
        let first = try await h.repository.apply(scans, event: event.id, device: device) { clock.now() }
        #expect(first.map(\.kind) == [.applied, .applied, .applied, .applied, .superseded])
        let again = try await h.repository.apply(scans, event: event.id, device: device) { clock.now() }
        #expect(again == first)
        #expect(try await h.repository.checkIns(event: event.id).count == 4)
        #expect(try await h.repository.checkInEvents(event: event.id).map(\.key.sequence) == [1, 2, 3, 4, 5])
    }

    @Test func aFailingItemKeepsTheAnswersBeforeItAndAppliesNothingAfterIt() async throws {
        let repository = try SQLiteCheckinRepository.inMemory(secrets: SecretsKey.random())
        let h = try await Harness(RepositoryFactory(name: "SQLite in memory") { repository })
        let (_, event, guests) = try await h.event(guests: 5)
        let device = try await h.enrolDirectly(event: event)
        let scans = Self.scans(device, guests, at: h.clock.now())
        // The third item's insert fails (one connection in memory: the temporary trigger is on it).
        try await repository.writer.write { db in
            try db.execute(
                sql: """
                    CREATE TEMP TRIGGER fail_third BEFORE INSERT ON check_in_event WHEN NEW.sequence = 3
                    BEGIN SELECT RAISE(ABORT, 'injected failure'); END
                    """)
        }
        let clock = h.clock
        await #expect(throws: DatabaseError.self) {
            _ = try await repository.apply(scans, event: event.id, device: device) { clock.now() }
        }
        #expect(try await repository.checkInEvents(event: event.id).map(\.key.sequence) == [1, 2])
        #expect(
            try await repository.checkIns(event: event.id).map(\.guest).sorted { $0.text < $1.text }
                == [guests[0].id, guests[1].id].sorted { $0.text < $1.text })

        // The kiosk sends the batch again: the first two get their stored answers, the rest are applied.
        try await repository.writer.write { db in try db.execute(sql: "DROP TRIGGER fail_third") }
        let outcomes = try await repository.apply(scans, event: event.id, device: device) { clock.now() }
        #expect(outcomes.map(\.kind) == [.applied, .applied, .applied, .applied, .applied])
        #expect(try await repository.checkInEvents(event: event.id).map(\.key.sequence) == [1, 2, 3, 4, 5])
    }
}
