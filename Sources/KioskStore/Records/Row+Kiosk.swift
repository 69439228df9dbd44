internal import GRDB
import KioskCore
import PassFormat
import SignedRecords

import struct Foundation.Date

/// Reading the kiosk's values back by column name; a value the store never writes is reported as corruption.
extension Row {
    func text(_ column: Column) throws -> String { try decode(String.self, forColumn: column) }

    func int(_ column: Column) throws -> Int { try decode(Int.self, forColumn: column) }

    func date(_ column: Column) throws -> Date { Date(storeMilliseconds: try decode(Int64.self, forColumn: column)) }

    func guestID(_ column: Column) throws -> GuestID {
        let text = try text(column)
        guard let id = GuestID(text: text), id.text == text else {
            throw corrupt("\(column.name) '\(text)' is not a guest code")
        }
        return id
    }

    func optionalGuestID(_ column: Column) throws -> GuestID? {
        try decode(String?.self, forColumn: column) == nil ? nil : try guestID(column)
    }

    func event(_ column: Column) throws -> EventID {
        EventID(UInt32(truncatingIfNeeded: try decode(Int64.self, forColumn: column)))
    }

    func tenant(_ column: Column) throws -> TenantID {
        TenantID(UInt32(truncatingIfNeeded: try decode(Int64.self, forColumn: column)))
    }

    func source(_ column: Column) throws -> ScanSource {
        let text = try text(column)
        guard let source = ScanSource(rawValue: text) else { throw corrupt("source '\(text)' is not camera or manual") }
        return source
    }

    func status(_ column: Column) throws -> RosterGuest.Status {
        let text = try text(column)
        guard let status = RosterGuest.Status(rawValue: text) else {
            throw corrupt("status '\(text)' is not active or cancelled")
        }
        return status
    }

    /// The path and operation are filled in where the error leaves the store (`SQLiteDoorStore.storeError`).
    func corrupt(_ what: String) -> StoreError {
        .corruptValue(what, operation: "reading a row", path: "")
    }
}
