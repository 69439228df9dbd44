import KioskCore
import struct Foundation.Date

extension SQLiteDoorStore {
    /// Adds or updates guests (by event and guest id) in one transaction. Guests not in `guests` stay.
    /// A tombstone still wins over an `active` status here.
    public func upsertGuests(_ guests: [RosterGuest], at now: Date = Date()) throws {
        try connection.transaction("roster update") {
            for guest in guests { try upsert(guest, at: now) }
        }
    }

    /// Cancels a guest: writes a tombstone (the first cancellation's time and reason are kept) and marks
    /// the roster row, if any, cancelled. One transaction.
    public func cancelGuest(_ id: GuestID, event: EventID, at time: Date, reason: String) throws {
        try connection.transaction("guest cancellation") {
            try connection.run("""
                INSERT INTO tombstones (event, guest_id, cancelled_at, reason) VALUES (?1, ?2, ?3, ?4)
                ON CONFLICT (event, guest_id) DO NOTHING
                """, name: "tombstone insert",
                [.int(event.rawValue), .text(id.text), .int(time.storeMilliseconds), .text(reason)])
            try connection.run("""
                UPDATE roster SET status = 'cancelled', updated_at = ?3 WHERE event = ?1 AND guest_id = ?2
                """, name: "roster cancel", [.int(event.rawValue), .text(id.text), .int(time.storeMilliseconds)])
        }
    }

    /// Loads a roster CSV (see `RosterCSV`) for the event in one transaction: a bad row throws
    /// `RosterImportError` naming its line, and then nothing is loaded. Returns the number of guests.
    public func importRoster(csv: String, tenant: TenantID, event: EventID, at now: Date = Date()) throws -> Int {
        let guests = try RosterCSV.guests(from: csv, tenant: tenant, event: event)
        try connection.transaction("roster import") {
            for guest in guests { try upsert(guest, at: now) }
        }
        return guests.count
    }

    /// How many guests the event's roster holds (cancelled included).
    public func guestCount(event: EventID) throws -> Int {
        try connection.firstRow("SELECT count(*) FROM roster WHERE event = ?1", name: "guest count",
                                [.int(event.rawValue)]) { $0.int(0) } ?? 0
    }

    private func upsert(_ guest: RosterGuest, at now: Date) throws(StoreError) {
        let nameKey = SearchKey.fold(guest.name)
        let event = SQLiteValue.int(guest.event.rawValue), id = SQLiteValue.text(guest.guest.text)
        try connection.run("""
            INSERT INTO roster (event, guest_id, tenant, name, name_key, email, email_key, party_size, status, notes,
                                updated_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
            ON CONFLICT (event, guest_id) DO UPDATE SET
                tenant = excluded.tenant, name = excluded.name, name_key = excluded.name_key, email = excluded.email,
                email_key = excluded.email_key, party_size = excluded.party_size, status = excluded.status,
                notes = excluded.notes, updated_at = excluded.updated_at
            """, name: "roster upsert",
            [event, id, .int(guest.tenant.rawValue), .text(guest.name), .text(nameKey), .text(guest.email),
             .text(SearchKey.fold(guest.email)), .int(guest.partySize), .text(guest.status.rawValue),
             .text(guest.notes), .int(now.storeMilliseconds)])
        try connection.run("DELETE FROM roster_words WHERE event = ?1 AND guest_id = ?2", name: "name words delete",
                           [event, id])
        for word in SearchKey.words(ofFolded: nameKey) {
            try connection.run("INSERT INTO roster_words (event, word, guest_id) VALUES (?1, ?2, ?3)",
                               name: "name word insert", [event, .text(String(word)), id])
        }
    }
}
