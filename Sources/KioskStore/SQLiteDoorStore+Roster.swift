internal import GRDB
import KioskCSV
import KioskCore
import PassFormat
import SignedRecords

import struct Foundation.Date

extension SQLiteDoorStore {
    /// Adds or updates guests (by event and guest id) in one transaction. Guests not in `guests` stay.
    /// A tombstone still wins over an `active` status here.
    public func upsertGuests(_ guests: [RosterGuest], at now: Date = Date()) throws {
        try write("updating the roster") { db in try upsert(guests, version: 0, at: now, db) }
    }

    /// Cancels a guest: writes a tombstone (the first cancellation's time and reason are kept) and marks
    /// the roster row, if any, cancelled. One transaction.
    public func cancelGuest(_ id: GuestID, event: EventID, at time: Date, reason: String) throws {
        let arguments: StatementArguments = [
            "event": Int64(event.rawValue), "guest_id": id.text,
            "at": time.storeMilliseconds, "reason": reason,
        ]
        try write("cancelling a guest") { db in
            try db.execute(
                sql: """
                    INSERT INTO tombstones (event, guest_id, cancelled_at, reason) VALUES (:event, :guest_id, :at, :reason)
                    ON CONFLICT (event, guest_id) DO NOTHING
                    """, arguments: arguments)
            try db.execute(
                sql: """
                    UPDATE roster SET status = 'cancelled', updated_at = :at WHERE event = :event AND guest_id = :guest_id
                    """, arguments: arguments)
        }
    }

    /// Loads a roster CSV (see `RosterCSV`) for the event in one transaction: a bad row throws
    /// `RosterImportError` naming its line, and then nothing is loaded. Returns the number of guests.
    public func importRoster(csv: String, tenant: TenantID, event: EventID, at now: Date = Date()) throws -> Int {
        try importRoster(csvBytes: Array(csv.utf8), tenant: tenant, event: event, at: now)
    }

    /// Loads a roster CSV file's bytes, as read from disk: besides bad rows, a NUL byte or bytes that are not
    /// UTF-8 (a file saved as Latin-1) throw `RosterImportError` with their line, and nothing is loaded.
    public func importRoster(csvBytes: [UInt8], tenant: TenantID, event: EventID, at now: Date = Date()) throws -> Int {
        let guests = try RosterCSV.guests(from: csvBytes, tenant: tenant, event: event)
        try write("importing the roster") { db in try upsert(guests, version: 0, at: now, db) }
        return guests.count
    }

    /// How many guests the event's roster holds (cancelled included).
    public func guestCount(event: EventID) throws -> Int {
        try read("counting guests") { db in
            try GuestRecord.filter(GuestRecord.Columns.event == Int64(event.rawValue)).fetchCount(db)
        }
    }

    /// Writes the roster rows (with the server's `version`; 0 for a CSV) and their name words.
    func upsert(_ guests: [RosterGuest], version: Int64, at now: Date, _ db: Database) throws {
        var words = RosterWords()
        for guest in guests {
            try upsert(guest, keys: SearchKeys(guest), version: version, at: now, isNew: false, words: &words, db)
        }
        try words.write(db)
    }

    /// Writes the roster row and deletes its old name words; its new words are made from the row by
    /// `words.write`, with the rest of the transaction's. `isNew`: the kiosk has no row for the guest, hence no
    /// words to delete. Runs for every row of a 100,000-guest download, so its statements take positional
    /// arguments (in the order of their column lists) rather than a record's `insert`, which builds a
    /// persistence container and looks the table's schema up on every call.
    func upsert(
        _ guest: RosterGuest, keys: SearchKeys, version: Int64, at now: Date, isNew: Bool,
        words: inout RosterWords, _ db: Database
    ) throws {
        let event = Int64(guest.event.rawValue)
        let id = guest.guest.text
        try db.cachedStatement(
            sql: """
                INSERT INTO roster (event, guest_id, tenant, name, name_key, email, email_key, party_size, status, notes,
                                    updated_at, version)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (event, guest_id) DO UPDATE SET
                    tenant = excluded.tenant, name = excluded.name, name_key = excluded.name_key, email = excluded.email,
                    email_key = excluded.email_key, party_size = excluded.party_size, status = excluded.status,
                    notes = excluded.notes, updated_at = excluded.updated_at, version = excluded.version
                """
        ).execute(arguments: [
            event, id, Int64(guest.tenant.rawValue), guest.name, keys.name, guest.email, keys.email,
            guest.partySize, guest.status.rawValue, guest.notes, now.storeMilliseconds, version,
        ])
        if !isNew {
            try db.cachedStatement(sql: "DELETE FROM roster_words WHERE event = ? AND guest_id = ?")
                .execute(arguments: [event, id])
        }
        words.add(id, event: event)
    }
}
