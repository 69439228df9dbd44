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
    }

    var pending: PendingCheckIn

    init(checkIn: CheckIn) {
        pending = PendingCheckIn(sequence: 0, checkIn: checkIn, attempts: 0, lastError: nil)
    }

    init(row: Row) throws {
        pending = PendingCheckIn(
            sequence: try row.decode(Int64.self, forColumn: Columns.sequence),
            checkIn: try CheckInRecord(row: row).checkIn, attempts: try row.int(Columns.attempts),
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
        container[Columns.idempotencyKey] = checkIn.idempotencyKey
    }
}
