internal import GRDB
import KioskCore
import PassFormat
import SignedRecords

extension SQLiteDoorStore {
    /// Guests of the event whose code starts with `codePrefix` (upper case, no dashes), by code, at most
    /// `limit`. Cancelled guests are included.
    public func guests(codePrefix: String, event: EventID, limit: Int) throws -> [RosterGuest] {
        let prefix = GuestID.normalizedCode(codePrefix)
        return try read("searching guest codes") { db in
            try GuestRecord.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM roster
                        WHERE event = :event AND guest_id >= :prefix AND guest_id < :end ORDER BY guest_id LIMIT :limit
                        """),
                arguments: [
                    "event": Int64(event.rawValue), "prefix": prefix,
                    "end": SearchKey.upperBound(ofPrefix: prefix), "limit": limit,
                ]
            ).map(\.guest)
        }
    }

    /// Guests of the event whose name, a word of the name, or e-mail starts with `prefix`, ignoring case and
    /// accents; ordered by name, at most `limit`. Cancelled guests are included, so the door can say so.
    public func searchGuests(prefix: String, event: EventID, limit: Int) throws -> [RosterGuest] {
        let key = SearchKey.fold(prefix)
        guard !key.isEmpty else {
            return try read("listing the roster") { db in
                try GuestRecord.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT * FROM roster WHERE event = :event ORDER BY name_key, guest_id LIMIT :limit
                            """), arguments: ["event": Int64(event.rawValue), "limit": limit]
                ).map(\.guest)
            }
        }
        // Each branch of the union is an index range, so the work grows with the matches, not the roster;
        // CROSS JOIN keeps SQLite from scanning the whole event in name order instead.
        return try read("searching names") { db in
            try GuestRecord.fetchAll(
                db.cachedStatement(
                    sql: """
                        WITH matches (guest_id) AS MATERIALIZED (
                            SELECT guest_id FROM roster WHERE event = :event AND name_key >= :key AND name_key < :end
                            UNION SELECT guest_id FROM roster WHERE event = :event AND email_key >= :key AND email_key < :end
                            UNION SELECT guest_id FROM roster_words WHERE event = :event AND word >= :key AND word < :end)
                        SELECT r.*
                        FROM matches AS m CROSS JOIN roster AS r ON r.event = :event AND r.guest_id = m.guest_id
                        ORDER BY r.name_key, r.guest_id LIMIT :limit
                        """),
                arguments: [
                    "event": Int64(event.rawValue), "key": key,
                    "end": SearchKey.upperBound(ofPrefix: key), "limit": limit,
                ]
            ).map(\.guest)
        }
    }
}
