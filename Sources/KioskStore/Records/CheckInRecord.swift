internal import GRDB
import KioskCore

/// A row of the `check_ins` table, read by column name.
struct CheckInRecord: FetchableRecord, TableRecord {
    static let databaseTableName = "check_ins"

    enum Columns {
        static let event = Column("event")
        static let guestID = Column("guest_id")
        static let door = Column("door")
        static let at = Column("at")
        static let arrived = Column("arrived")
        static let source = Column("source")
    }

    var checkIn: CheckIn

    init(row: Row) throws {
        checkIn = CheckIn(
            guest: try row.guestID(Columns.guestID), event: try row.event(Columns.event),
            door: try row.text(Columns.door), at: try row.date(Columns.at),
            arrived: try row.int(Columns.arrived), source: try row.source(Columns.source))
    }

    /// The check-in's values as named statement arguments (`:event`, `:guest_id`, ...).
    static func arguments(_ checkIn: CheckIn) -> StatementArguments {
        [
            "event": Int64(checkIn.event.rawValue), "guest_id": checkIn.guest.text, "door": checkIn.door,
            "at": checkIn.at.storeMilliseconds, "arrived": checkIn.arrived, "source": checkIn.source.rawValue,
        ]
    }
}
