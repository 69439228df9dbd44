import KioskCore
import struct Foundation.Date

/// Reading the kiosk's values back; a value the store never writes is reported as corruption.
extension SQLiteRow {
    func date(_ column: Int32) -> Date { Date(storeMilliseconds: int64(column)) }

    func guestID(_ column: Int32) throws(StoreError) -> GuestID {
        let text = text(column)
        guard let id = GuestID(text: text), id.text == text else {
            throw corrupt("guest_id '\(text)' is not a guest code")
        }
        return id
    }

    func event(_ column: Int32) -> EventID { EventID(UInt32(truncatingIfNeeded: int64(column))) }

    func tenant(_ column: Int32) -> TenantID { TenantID(UInt32(truncatingIfNeeded: int64(column))) }

    func source(_ column: Int32) throws(StoreError) -> ScanSource {
        let text = text(column)
        guard let source = ScanSource(rawValue: text) else { throw corrupt("source '\(text)' is not camera or manual") }
        return source
    }

    func status(_ column: Int32) throws(StoreError) -> RosterGuest.Status {
        let text = text(column)
        guard let status = RosterGuest.Status(rawValue: text) else {
            throw corrupt("status '\(text)' is not active or cancelled")
        }
        return status
    }

    /// A roster guest from `SQLiteDoorStore.guestColumns`, starting at `first`.
    func rosterGuest(from first: Int32 = 0) throws(StoreError) -> RosterGuest {
        RosterGuest(guest: try guestID(first), tenant: tenant(first + 1), event: event(first + 2),
                    name: text(first + 3), email: text(first + 4), partySize: int(first + 5),
                    status: try status(first + 6), notes: text(first + 7))
    }

    /// A check-in from `SQLiteDoorStore.checkInColumns`, starting at `first`.
    func checkIn(from first: Int32 = 0) throws(StoreError) -> CheckIn {
        CheckIn(guest: try guestID(first), event: event(first + 1), door: text(first + 2), at: date(first + 3),
                arrived: int(first + 4), source: try source(first + 5))
    }

    private func corrupt(_ what: String) -> StoreError {
        .corruptValue(what, operation: "reading \(statement.name) result", path: statement.connection.path)
    }
}
