import GRDB
import KioskCore
import Testing

@testable import KioskStore

@Suite("Audit rows wait in memory while another process holds the write lock")
struct AuditBacklogTests {
    private func scan(_ n: Int, verdict: String = "not_valid_here") -> ScanAttempt {
        ScanAttempt(
            at: Fixture.time(n), door: Fixture.door, source: .camera, payload: "PASS \(n)", guest: nil,
            verdict: verdict, reason: "scan \(n)")
    }

    @Test("rows audited under the lock are kept and written in order by the next write")
    func keptAndWrittenInOrder() throws {
        let db = try TestDatabase(.file)
        let store = try db.open(busyTimeout: .milliseconds(50))
        try store.upsertGuests(Fixture.roster)
        try store.audit(scan(1))

        let other = try LockHolder(path: db.path, key: db.key)
        for n in 2...4 { try store.audit(scan(n)) }  // does not throw: the rows wait
        let blocked = Fixture.checkIn(Fixture.anna, at: 5)
        let refused = storeError { _ = try store.record(checkIn: blocked, attempt: Fixture.attempt(for: blocked)) }
        #expect(refused?.kind == .busy)
        try store.audit(scan(6))
        #expect(store.pendingAuditRowCount == 5)
        #expect(try store.auditLog(limit: 10) == [scan(1)], "readers go on; the waiting rows are not written yet")

        try other.release()
        let admitted = Fixture.checkIn(Fixture.anna, at: 7)
        #expect(try store.record(checkIn: admitted, attempt: Fixture.attempt(for: admitted)) == .recorded)
        #expect(store.pendingAuditRowCount == 0)
        let log = try store.auditLog(limit: 20)
        #expect(
            log.map(\.reason) == [
                "scan 1", "scan 2", "scan 3", "scan 4",
                "not checked in: the database was locked by another process", "scan 6",
                "valid pass",
            ])
        #expect(log[4].verdict == "record_failed")
        #expect(log[4].guest == Fixture.anna.guest)
        #expect(Array(log[1...3]) == [scan(2), scan(3), scan(4)], "every field kept")
    }

    @Test("the next audit after the lock writes the waiting rows first")
    func nextAuditFlushes() throws {
        let db = try TestDatabase(.file)
        let store = try db.open(busyTimeout: .milliseconds(50))
        let other = try LockHolder(path: db.path, key: db.key)
        try store.audit(scan(1))
        try store.audit(scan(2))
        try other.release()
        try store.audit(scan(3))
        #expect(try store.auditLog(limit: 10) == [scan(1), scan(2), scan(3)])
        #expect(store.pendingAuditRowCount == 0)
    }

    @Test("rows still waiting are written when the store closes")
    func writtenAtClose() throws {
        let db = try TestDatabase(.file)
        do {
            let store = try db.open(busyTimeout: .milliseconds(50))
            let other = try LockHolder(path: db.path, key: db.key)
            try store.audit(scan(1))
            #expect(store.pendingAuditRowCount == 1)
            try other.release()
        }  // the store closes here, with one row waiting
        #expect(try db.open().auditLog(limit: 10) == [scan(1)])
    }

    @Test("a full backlog drops the oldest rows and says so")
    func bounded() throws {
        let db = try TestDatabase(.file)
        let store = try db.open(busyTimeout: .milliseconds(20))
        store.auditBacklog.capacity = 3
        let other = try LockHolder(path: db.path, key: db.key)
        for n in 1...3 { try store.audit(scan(n)) }
        let error = storeError { try store.audit(scan(4)) }
        #expect(error?.kind == .busy)
        #expect(error?.description.contains("1 of the oldest were dropped") == true)
        #expect(store.pendingAuditRowCount == 3)
        try other.release()
        try store.audit(scan(5))
        #expect(try store.auditLog(limit: 10) == [scan(2), scan(3), scan(4), scan(5)])
    }

    @Test("a broken database is still reported by audit", arguments: StoreKind.allCases)
    func brokenIsReported(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.database.write { try $0.execute(sql: "DROP TABLE audit_log") }
        let error = storeError { try store.audit(scan(1)) }
        #expect(error?.kind == .other)
        #expect(error?.description.contains("writing audit rows") == true)
        #expect(error?.description.contains("no such table") == true)
    }
}
