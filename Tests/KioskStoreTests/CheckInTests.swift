import GRDB
import KioskCore
import Testing

@testable import KioskStore

@Suite("Recording check-ins, the sync queue and the audit log")
struct CheckInTests {
    @Test(
        "a second check-in of a guest is refused with the first, and writes only an audit row",
        arguments: StoreKind.allCases)
    func uniqueCheckIn(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests(Fixture.roster)
        let first = Fixture.checkIn(Fixture.anna, at: 10, door: "North door")
        let second = Fixture.checkIn(Fixture.anna, at: 70, door: "South door", source: .manual)

        #expect(try store.record(checkIn: first, attempt: Fixture.attempt(for: first)) == .recorded)
        #expect(try store.record(checkIn: second, attempt: Fixture.attempt(for: second)) == .alreadyRecorded(first))

        #expect(try store.checkIns(event: Fixture.event) == [first])
        #expect(try store.pendingCheckIns(limit: 10).map(\.checkIn) == [first])
        let audit = try store.auditLog(limit: 10)
        #expect(audit.map(\.verdict) == ["admitted", "already_checked_in"])
        #expect(audit.last?.door == "South door")
        #expect(audit.last?.reason.contains("North door") == true)
    }

    @Test("the same guest may check in at another event", arguments: StoreKind.allCases)
    func otherEvent(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        let here = Fixture.anna
        let there = Fixture.guest(1, "Anna Smith", event: Fixture.otherEvent)
        try store.upsertGuests([here, there])
        let a = Fixture.checkIn(here, at: 1)
        let b = Fixture.checkIn(there, at: 2)

        #expect(try store.record(checkIn: a, attempt: Fixture.attempt(for: a)) == .recorded)
        #expect(try store.record(checkIn: b, attempt: Fixture.attempt(for: b)) == .recorded)
        #expect(try store.checkIns(event: Fixture.otherEvent) == [b])
    }

    @Test("the queue keeps scan order, with the idempotency key; synced rows leave it", arguments: StoreKind.allCases)
    func queueOrder(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests(Fixture.roster)
        // Scan order differs from time order and from guest order.
        let scans = [
            Fixture.checkIn(Fixture.dan, at: 30), Fixture.checkIn(Fixture.anna, at: 10),
            Fixture.checkIn(Fixture.carla, at: 20),
        ]
        for scan in scans { _ = try store.record(checkIn: scan, attempt: Fixture.attempt(for: scan)) }

        let pending = try store.pendingCheckIns(limit: 10)
        #expect(pending.map(\.checkIn) == scans)
        #expect(pending.map(\.sequence) == pending.map(\.sequence).sorted())
        #expect(pending.allSatisfy { $0.attempts == 0 && $0.lastError == nil })
        #expect(try store.pendingCount() == 3)
        #expect(try store.pendingCheckIns(limit: 2).map(\.checkIn) == Array(scans.prefix(2)))

        let keys = try store.database.read { db in
            try Row.fetchAll(db, sql: "SELECT idempotency_key FROM sync_queue ORDER BY sequence")
                .map { row -> String in row["idempotency_key"] }
        }
        #expect(keys == scans.map(\.idempotencyKey))

        try store.markSynced(sequences: [pending[0].sequence, pending[2].sequence])
        #expect(try store.pendingCheckIns(limit: 10).map(\.checkIn) == [scans[1]])
        #expect(try store.pendingCount() == 1)
        #expect(try store.checkIns(event: Fixture.event).count == 3, "synced check-ins stay recorded")

        // A synced guest is still checked in; a later scan is still refused.
        let again = Fixture.checkIn(Fixture.dan, at: 90)
        #expect(try store.record(checkIn: again, attempt: Fixture.attempt(for: again)) == .alreadyRecorded(scans[0]))
        #expect(try store.pendingCount() == 1)
    }

    @Test("a failed send counts an attempt and keeps the error", arguments: StoreKind.allCases)
    func markFailed(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests(Fixture.roster)
        let scan = Fixture.checkIn(Fixture.bob, at: 5)
        _ = try store.record(checkIn: scan, attempt: Fixture.attempt(for: scan))
        let sequence = try #require(try store.pendingCheckIns(limit: 1).first).sequence

        try store.markFailed(sequence: sequence, error: "server unreachable")
        try store.markFailed(sequence: sequence, error: "HTTP 503")
        let pending = try #require(try store.pendingCheckIns(limit: 1).first)
        #expect(pending.attempts == 2)
        #expect(pending.lastError == "HTTP 503")
        #expect(pending.checkIn == scan)
    }

    @Test("every scan attempt is audited, newest last, with all fields", arguments: StoreKind.allCases)
    func auditRows(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        let rejected = ScanAttempt(
            at: Fixture.time(1), door: "Door 2", source: .camera, payload: "HTTPS://X/Y",
            guest: nil, verdict: "not_valid_here", reason: "bad signature")
        let unknown = ScanAttempt(
            at: Fixture.time(2, ms: 345), door: "Door 2", source: .manual, payload: "ABCD",
            guest: Fixture.id(8), verdict: "not_in_roster", reason: "guest not in local roster")
        try store.audit(rejected)
        try store.audit(unknown)

        #expect(try store.auditLog(limit: 10) == [rejected, unknown])
        #expect(try store.auditLog(limit: 1) == [unknown])
        #expect(try store.checkIns(event: Fixture.event).isEmpty)
        #expect(try store.pendingCount() == 0)
    }

    @Test("a failing check-in transaction leaves no queue or audit row", arguments: StoreKind.allCases)
    func atomicRecord(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests(Fixture.roster)
        var bad = Fixture.checkIn(Fixture.anna, at: 1)
        bad.arrived = -1  // breaks CHECK (arrived >= 0) in the first insert

        let error = storeError { _ = try store.record(checkIn: bad, attempt: Fixture.attempt(for: bad)) }
        #expect(error?.kind == .constraint)
        #expect(try store.pendingCount() == 0)
        #expect(try store.auditLog(limit: 10).isEmpty)

        // The failed transaction was rolled back; the next one works.
        let good = Fixture.checkIn(Fixture.anna, at: 2)
        #expect(try store.record(checkIn: good, attempt: Fixture.attempt(for: good)) == .recorded)
    }

    @Test("a recorded check-in survives closing and reopening the file")
    func durable() throws {
        let db = try TestDatabase(.file)
        let scan = Fixture.checkIn(Fixture.anna, at: 1)
        do {
            let store = try db.open()
            try store.upsertGuests(Fixture.roster)
            _ = try store.record(checkIn: scan, attempt: Fixture.attempt(for: scan))
        }
        let reopened = try db.open()
        #expect(try reopened.lookUp(guest: Fixture.anna.guest, event: Fixture.event) == .checkedIn(Fixture.anna, scan))
        #expect(try reopened.pendingCheckIns(limit: 10).map(\.checkIn) == [scan])
        #expect(reopened.database is DatabasePool, "a file is shared by readers beside one writer")
        #expect(try writerPragma(reopened, "journal_mode") == "wal")
        #expect(try writerPragma(reopened, "synchronous") == "2", "synchronous=FULL")
        #expect(try writerPragma(reopened, "foreign_keys") == "1")
        // An audit row is committed with NORMAL; FULL is back for the check-ins after it.
        try reopened.audit(Fixture.attempt(for: scan))
        #expect(try writerPragma(reopened, "synchronous") == "2", "synchronous=FULL after an audit row")
    }

    /// A pragma's value on the store's writer connection (pragmas are per connection).
    private func writerPragma(_ store: SQLiteDoorStore, _ name: String) throws -> String? {
        try store.database.writeWithoutTransaction { db in
            let value = try Row.fetchOne(db, sql: "PRAGMA \(name)")?[name] as DatabaseValue?
            switch value?.storage {
            case .int64(let n): return String(n)
            case .string(let text): return text
            default: return nil
            }
        }
    }
}
