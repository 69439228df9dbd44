internal import GRDB
import KioskCore

extension SQLiteDoorStore {
    /// Audits a scan that did not check anyone in.
    ///
    /// Committed with `synchronous=NORMAL` (see `Durability.normal`), so a rejected pass does not wait on an
    /// fsync. While another process holds the write lock, the row waits in memory with the earlier ones
    /// (`pendingAuditRowCount`) and is written, in order, by the next write or audit once the lock is gone:
    /// a locked database does not throw here. Any other failure (a broken disk or file) throws, and the row
    /// still waits. When more rows wait than the backlog holds, the oldest are dropped and this throws `.busy`.
    public func audit(_ attempt: ScanAttempt) throws {
        auditBacklog.append(attempt)
        do {
            try write("writing audit rows", durability: .normal) { _ in }
        } catch let error as StoreError where error.kind == .busy {
            guard auditBacklog.trim() == 0 else {
                throw StoreError(
                    kind: .busy, resultCode: error.resultCode,
                    message: "\(auditBacklog.capacity) audit rows are waiting for the lock; "
                        + "\(auditBacklog.dropped) of the oldest were dropped",
                    operation: "writing audit rows", path: path)
            }
            // Kept in auditBacklog until the lock is gone.
        }
    }

    /// How many audit rows wait in memory for a locked database.
    public var pendingAuditRowCount: Int { auditBacklog.rows.count }

    /// The last `limit` audit rows, newest last (for tests and the operator tool).
    public func auditLog(limit: Int) throws -> [ScanAttempt] {
        try read("reading the audit log") { db in
            try AuditRecord.fetchAll(
                db, sql: "SELECT * FROM audit_log ORDER BY id DESC LIMIT :limit",
                arguments: ["limit": limit]
            ).map(\.attempt).reversed()
        }
    }

    /// How many scans the audit log holds, by verdict ("admitted", "refused"...), for `kioskctl status --json`.
    public func auditCountsByVerdict() throws -> [String: Int] {
        try read("counting the audit log") { db in
            var counts: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT verdict, count(*) AS n FROM audit_log GROUP BY verdict") {
                counts[row["verdict"]] = row["n"]
            }
            return counts
        }
    }
}
