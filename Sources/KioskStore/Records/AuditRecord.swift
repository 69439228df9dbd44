internal import GRDB
import KioskCore

/// A row of the `audit_log` table, read and written by column name.
struct AuditRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "audit_log"

    enum Columns {
        static let id = Column("id")
        static let at = Column("at")
        static let door = Column("door")
        static let source = Column("source")
        static let payload = Column("payload")
        static let guestID = Column("guest_id")
        static let verdict = Column("verdict")
        static let reason = Column("reason")
    }

    var attempt: ScanAttempt

    init(_ attempt: ScanAttempt) { self.attempt = attempt }

    init(row: Row) throws {
        attempt = ScanAttempt(
            at: try row.date(Columns.at), door: try row.text(Columns.door),
            source: try row.source(Columns.source), payload: try row.text(Columns.payload),
            guest: try row.optionalGuestID(Columns.guestID), verdict: try row.text(Columns.verdict),
            reason: try row.text(Columns.reason))
    }

    func encode(to container: inout PersistenceContainer) {
        container[Columns.at] = attempt.at.storeMilliseconds
        container[Columns.door] = attempt.door
        container[Columns.source] = attempt.source.rawValue
        container[Columns.payload] = attempt.payload
        container[Columns.guestID] = attempt.guest?.text
        container[Columns.verdict] = attempt.verdict
        container[Columns.reason] = attempt.reason
    }
}
