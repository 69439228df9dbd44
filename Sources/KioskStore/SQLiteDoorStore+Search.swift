import KioskCore

extension SQLiteDoorStore {
    /// Guests of the event whose code starts with `codePrefix` (upper case, no dashes), by code, at most
    /// `limit`. Cancelled guests are included.
    public func guests(codePrefix: String, event: EventID, limit: Int) throws -> [RosterGuest] {
        let prefix = GuestID.normalizedCode(codePrefix)
        return try connection.rows("""
            SELECT \(Self.guestColumns) FROM roster AS r
            WHERE r.event = ?1 AND r.guest_id >= ?2 AND r.guest_id < ?3 ORDER BY r.guest_id LIMIT ?4
            """, name: "code prefix search",
            [.int(event.rawValue), .text(prefix), .text(SearchKey.upperBound(ofPrefix: prefix)), .int(limit)]
        ) { row throws(StoreError) in try row.rosterGuest() }
    }

    /// Guests of the event whose name, a word of the name, or e-mail starts with `prefix`, ignoring case and
    /// accents; ordered by name, at most `limit`. Cancelled guests are included, so the door can say so.
    public func searchGuests(prefix: String, event: EventID, limit: Int) throws -> [RosterGuest] {
        let key = SearchKey.fold(prefix)
        guard !key.isEmpty else {
            return try connection.rows("""
                SELECT \(Self.guestColumns) FROM roster AS r WHERE r.event = ?1 ORDER BY r.name_key, r.guest_id LIMIT ?2
                """, name: "roster by name", [.int(event.rawValue), .int(limit)]
            ) { row throws(StoreError) in try row.rosterGuest() }
        }
        // Each branch of the union is an index range, so the work grows with the matches, not the roster;
        // CROSS JOIN keeps SQLite from scanning the whole event in name order instead.
        return try connection.rows("""
            WITH matches (guest_id) AS MATERIALIZED (
                SELECT guest_id FROM roster WHERE event = ?1 AND name_key >= ?2 AND name_key < ?3
                UNION SELECT guest_id FROM roster WHERE event = ?1 AND email_key >= ?2 AND email_key < ?3
                UNION SELECT guest_id FROM roster_words WHERE event = ?1 AND word >= ?2 AND word < ?3)
            SELECT \(Self.guestColumns)
            FROM matches AS m CROSS JOIN roster AS r ON r.event = ?1 AND r.guest_id = m.guest_id
            ORDER BY r.name_key, r.guest_id LIMIT ?4
            """, name: "name search",
            [.int(event.rawValue), .text(key), .text(SearchKey.upperBound(ofPrefix: key)), .int(limit)]
        ) { row throws(StoreError) in try row.rosterGuest() }
    }
}
