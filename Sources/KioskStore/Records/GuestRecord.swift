internal import GRDB
import KioskCore
import SignedRecords

/// A row of the `roster` table, read by column name.
struct GuestRecord: FetchableRecord, TableRecord {
    static let databaseTableName = "roster"

    enum Columns {
        static let event = Column("event")
        static let guestID = Column("guest_id")
        static let tenant = Column("tenant")
        static let name = Column("name")
        static let nameKey = Column("name_key")
        static let email = Column("email")
        static let emailKey = Column("email_key")
        static let partySize = Column("party_size")
        static let status = Column("status")
        static let notes = Column("notes")
        static let updatedAt = Column("updated_at")
    }

    var guest: RosterGuest

    init(row: Row) throws {
        guest = RosterGuest(
            guest: try row.guestID(Columns.guestID), tenant: try row.tenant(Columns.tenant),
            event: try row.event(Columns.event), name: try row.text(Columns.name),
            email: try row.text(Columns.email), partySize: try row.int(Columns.partySize),
            status: try row.status(Columns.status), notes: try row.text(Columns.notes))
    }
}
