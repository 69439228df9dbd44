import CheckinCore
import Foundation
import GRDB
import PassFormat

extension SQLiteCheckinRepository {
    /// The guest columns and the check-in's, for `guestWithCheckIn`.
    static let guestAndCheckInColumns = """
        g.*, c.door AS c_door, c.corrected_time AS c_at, c.arrived AS c_arrived
        """

    static func guestWithCheckIn(_ row: Row) throws -> Guest {
        var guest = try GuestRow(row: row).guest(checkIn: nil)
        if let door: String = row["c_door"], let at: Date = row["c_at"] {
            guest.checkIn = CheckInSummary(door: door, at: at, arrived: row["c_arrived"] ?? 0)
        }
        return guest
    }

    public func searchGuests(event: EventID, text: String, limit: Int) async throws -> [Guest] {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.guestAndCheckInColumns) FROM guest AS g
                    LEFT JOIN check_in AS c ON c.event_id = g.event_id AND c.guest_id = g.id
                    WHERE g.event_id = :event AND (:text = '' OR unaccent(g.name) LIKE :unaccented ESCAPE '\\'
                        OR g.email LIKE :contains ESCAPE '\\' OR (:code != '' AND g.id LIKE :code ESCAPE '\\'))
                    ORDER BY g.name COLLATE NOCASE, g.id LIMIT :limit
                    """,
                arguments: [
                    "event": Int64(event.rawValue), "text": trimmed,
                    "contains": "%" + GuestSearch.likeEscaped(trimmed) + "%",
                    "unaccented": "%" + GuestSearch.likeEscaped(GuestSearch.unaccented(trimmed)) + "%",
                    "code": GuestSearch.codePrefix(trimmed).isEmpty
                        ? "" : GuestSearch.likeEscaped(GuestSearch.codePrefix(trimmed)) + "%",
                    "limit": limit,
                ]
            ).map(Self.guestWithCheckIn)
        }
    }

    public func guestList(event: EventID, _ query: GuestQuery, offset: Int, limit: Int) async throws
        -> GuestListPage
    {
        let trimmed = query.text.trimmingCharacters(in: .whitespaces)
        let arguments: StatementArguments = [
            "event": Int64(event.rawValue), "text": trimmed,
            "contains": "%" + GuestSearch.likeEscaped(trimmed) + "%",
            "unaccented": "%" + GuestSearch.likeEscaped(GuestSearch.unaccented(trimmed)) + "%",
            "code": GuestSearch.codePrefix(trimmed).isEmpty
                ? "" : GuestSearch.likeEscaped(GuestSearch.codePrefix(trimmed)) + "%",
            "notArrived": query.notArrivedOnly, "offset": max(0, offset), "limit": max(0, limit),
        ]
        let matching = """
            FROM guest AS g LEFT JOIN check_in AS c ON c.event_id = g.event_id AND c.guest_id = g.id
            WHERE g.event_id = :event AND (:text = '' OR unaccent(g.name) LIKE :unaccented ESCAPE '\\'
                OR g.email LIKE :contains ESCAPE '\\' OR (:code != '' AND g.id LIKE :code ESCAPE '\\'))
              AND (NOT :notArrived OR (g.status = 'active' AND c.guest_id IS NULL))
            """
        let order =
            switch query.order {
            case .name: "g.name COLLATE NOCASE, g.id"
            case .status:
                "CASE WHEN g.status = 'cancelled' THEN 2 WHEN c.guest_id IS NULL THEN 0 ELSE 1 END, g.name COLLATE NOCASE, g.id"
            case .arrival: "c.corrected_time IS NULL, c.corrected_time DESC, g.name COLLATE NOCASE, g.id"
            }
        return try await writer.read { db in
            let guests = try Row.fetchAll(
                db,
                sql: "SELECT \(Self.guestAndCheckInColumns) \(matching) ORDER BY \(order) LIMIT :limit OFFSET :offset",
                arguments: arguments
            ).map(Self.guestWithCheckIn)
            let totals = try Row.fetchOne(
                db, sql: "SELECT COUNT(*) AS total, COALESCE(SUM(g.party_size), 0) AS people \(matching)",
                arguments: arguments)
            return GuestListPage(guests: guests, total: totals?["total"] ?? 0, people: totals?["people"] ?? 0)
        }
    }

    public func counts(event: EventID) async throws -> EventCounts {
        try await writer.read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT
                        (SELECT COUNT(*) FROM guest WHERE event_id = :event AND status = 'active') AS guests,
                        (SELECT COALESCE(SUM(party_size), 0) FROM guest WHERE event_id = :event AND status = 'active')
                            AS people,
                        (SELECT COUNT(*) FROM guest WHERE event_id = :event AND status = 'cancelled') AS cancelled,
                        (SELECT COUNT(*) FROM check_in AS c JOIN guest AS g ON g.event_id = c.event_id AND g.id = c.guest_id
                         WHERE c.event_id = :event AND g.status = 'active') AS checked_in,
                        (SELECT COALESCE(SUM(c.arrived), 0) FROM check_in AS c
                         JOIN guest AS g ON g.event_id = c.event_id AND g.id = c.guest_id
                         WHERE c.event_id = :event AND g.status = 'active') AS arrived
                    """, arguments: ["event": Int64(event.rawValue)])
            return EventCounts(
                guests: row?["guests"] ?? 0, expectedPeople: row?["people"] ?? 0, checkedIn: row?["checked_in"] ?? 0,
                arrivedPeople: row?["arrived"] ?? 0, cancelled: row?["cancelled"] ?? 0)
        }
    }

    public func arrivals(event: EventID, since: Date?, alertedOnly: Bool, limit: Int) async throws -> [Guest] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.guestAndCheckInColumns) FROM check_in AS c
                    JOIN guest AS g ON g.event_id = c.event_id AND g.id = c.guest_id
                    WHERE c.event_id = :event AND (:since IS NULL OR c.corrected_time >= :since)
                        AND (NOT :alerted OR (g.arrival_alert IS NOT NULL AND g.arrival_alert <> ''))
                    ORDER BY c.corrected_time DESC, c.guest_id LIMIT :limit
                    """,
                arguments: ["event": Int64(event.rawValue), "since": since, "alerted": alertedOnly, "limit": limit]
            ).map(Self.guestWithCheckIn)
        }
    }

    public func checkInTimes(event: EventID, since: Date) async throws -> [DoorTime] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT door, corrected_time FROM check_in WHERE event_id = ? AND corrected_time >= ?",
                arguments: [Int64(event.rawValue), since]
            ).map { row in DoorTime(door: row[0], at: row[1]) }
        }
    }
}
