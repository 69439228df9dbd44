internal import GRDB
import KioskCore

/// A row of the `sync_queue` table: a check-in waiting for the server, read and written by column name.
struct QueuedCheckInRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "sync_queue"

    enum Columns {
        static let sequence = Column("sequence")
        static let idempotencyKey = Column("idempotency_key")
        static let attempts = Column("attempts")
        static let lastError = Column("last_error")
        static let kind = Column("kind")
        static let reverts = Column("reverts")
    }

    var pending: PendingCheckIn

    init(checkIn: CheckIn, kind: PendingCheckIn.Kind = .checkIn) {
        pending = PendingCheckIn(sequence: 0, checkIn: checkIn, kind: kind, attempts: 0, lastError: nil)
    }

    init(row: Row) throws {
        let kind: PendingCheckIn.Kind
        switch try row.text(Columns.kind) {
        case "check_in": kind = .checkIn
        case "revert": kind = .revert(of: try row.decode(Int64?.self, forColumn: Columns.reverts))
        case let other:
            throw row.corrupt("kind '\(other)' is not check_in or revert")
        }
        pending = PendingCheckIn(
            sequence: try row.decode(Int64.self, forColumn: Columns.sequence),
            checkIn: try CheckInRecord(row: row).checkIn, kind: kind, attempts: try row.int(Columns.attempts),
            lastError: try row.decode(String?.self, forColumn: Columns.lastError))
    }

    /// Inserted without a sequence: SQLite's AUTOINCREMENT gives the next one (scan order).
    func encode(to container: inout PersistenceContainer) {
        let checkIn = pending.checkIn
        container[CheckInRecord.Columns.event] = Int64(checkIn.event.rawValue)
        container[CheckInRecord.Columns.guestID] = checkIn.guest.text
        container[CheckInRecord.Columns.door] = checkIn.door
        container[CheckInRecord.Columns.at] = checkIn.at.storeMilliseconds
        container[CheckInRecord.Columns.arrived] = checkIn.arrived
        container[CheckInRecord.Columns.source] = checkIn.source.rawValue
        switch pending.kind {
        case .checkIn:
            container[Columns.kind] = "check_in"
            container[Columns.idempotencyKey] = checkIn.idempotencyKey
        case .revert(let sequence):
            container[Columns.kind] = "revert"
            container[Columns.reverts] = sequence
            container[Columns.idempotencyKey] = "revert|" + checkIn.idempotencyKey
        }
    }
}
