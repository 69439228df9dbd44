import KioskCore

extension SQLiteDoorStore {
    /// Audits a scan that did not check anyone in.
    ///
    /// Committed with `synchronous=NORMAL`: in WAL mode the row survives a crash of the kiosk and is made
    /// durable by the next check-in's full sync; only a power cut in between may lose it. Check-ins themselves
    /// are always committed with `synchronous=FULL`. This keeps a rejected pass from waiting on an fsync.
    public func audit(_ attempt: ScanAttempt) throws {
        try connection.execute("PRAGMA synchronous = NORMAL", "relaxing sync for an audit row")
        defer { try? connection.execute("PRAGMA synchronous = FULL", "restoring synchronous=FULL") }
        try insertAudit(attempt)
    }

    /// The last `limit` audit rows, newest last (for tests and the operator tool).
    public func auditLog(limit: Int) throws -> [ScanAttempt] {
        let newestFirst = try connection.rows("""
            SELECT at, door, source, payload, guest_id, verdict, reason FROM audit_log ORDER BY id DESC LIMIT ?1
            """, name: "audit log", [.int(limit)]) { row throws(StoreError) in
            ScanAttempt(at: row.date(0), door: row.text(1), source: try row.source(2), payload: row.text(3),
                        guest: row.isNull(4) ? nil : try row.guestID(4), verdict: row.text(5), reason: row.text(6))
        }
        return newestFirst.reversed()
    }

    func insertAudit(_ attempt: ScanAttempt) throws(StoreError) {
        try connection.run("""
            INSERT INTO audit_log (at, door, source, payload, guest_id, verdict, reason)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            """, name: "audit insert",
            [.int(attempt.at.storeMilliseconds), .text(attempt.door), .text(attempt.source.rawValue),
             .text(attempt.payload), attempt.guest.map { .text($0.text) } ?? .null, .text(attempt.verdict),
             .text(attempt.reason)])
    }
}
