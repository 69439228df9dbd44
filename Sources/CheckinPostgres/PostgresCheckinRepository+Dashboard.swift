import CheckinCore
import Foundation
import PassFormat
import PostgresNIO

extension PostgresCheckinRepository {
    public func searchGuests(event: EventID, text: String, limit: Int) async throws -> [Guest] {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let contains = "%" + GuestSearch.likeEscaped(trimmed) + "%"
        let unaccented = "%" + GuestSearch.likeEscaped(GuestSearch.unaccented(trimmed)) + "%"
        let code = GuestSearch.codePrefix(trimmed)
        let codePattern = code.isEmpty ? "" : GuestSearch.likeEscaped(code) + "%"
        return try await rows(
            """
            SELECT \(unescaped: Self.guestColumns) FROM guest g
            LEFT JOIN check_in c ON c.event_id = g.event_id AND c.guest_id = g.id
            WHERE g.event_id = \(Int64(event.rawValue)) AND (\(trimmed) = ''
                OR translate(g.name, \(GuestSearch.unaccentFrom), \(GuestSearch.unaccentTo)) ILIKE \(unaccented)
                OR g.email ILIKE \(contains) OR (\(codePattern) <> '' AND g.id LIKE \(codePattern)))
            ORDER BY lower(g.name), g.id LIMIT \(Int64(limit))
            """
        ).map(Self.guest)
    }

    public func guestList(event: EventID, _ query: GuestQuery, offset: Int, limit: Int) async throws
        -> GuestListPage
    {
        let trimmed = query.text.trimmingCharacters(in: .whitespaces)
        let contains = "%" + GuestSearch.likeEscaped(trimmed) + "%"
        let unaccented = "%" + GuestSearch.likeEscaped(GuestSearch.unaccented(trimmed)) + "%"
        let code = GuestSearch.codePrefix(trimmed)
        let codePattern = code.isEmpty ? "" : GuestSearch.likeEscaped(code) + "%"
        let order =
            switch query.order {
            case .name: "lower(g.name), g.id"
            case .status:
                "CASE WHEN g.status = 'cancelled' THEN 2 WHEN c.guest_id IS NULL THEN 0 ELSE 1 END, lower(g.name), g.id"
            case .arrival: "c.corrected_time IS NULL, c.corrected_time DESC, lower(g.name), g.id"
            }
        // One statement: the page's rows, each with the whole list's count and people (a window over the match).
        let found = try await rows(
            """
            SELECT \(unescaped: Self.guestColumns), COUNT(*) OVER () AS list_total,
                COALESCE(SUM(g.party_size) OVER (), 0)::bigint AS list_people
            FROM guest g
            LEFT JOIN check_in c ON c.event_id = g.event_id AND c.guest_id = g.id
            WHERE g.event_id = \(Int64(event.rawValue)) AND (\(trimmed) = ''
                OR translate(g.name, \(GuestSearch.unaccentFrom), \(GuestSearch.unaccentTo)) ILIKE \(unaccented)
                OR g.email ILIKE \(contains) OR (\(codePattern) <> '' AND g.id LIKE \(codePattern)))
              AND (NOT \(query.notArrivedOnly) OR (g.status = 'active' AND c.guest_id IS NULL))
            ORDER BY \(unescaped: order) LIMIT \(Int64(max(0, limit))) OFFSET \(Int64(max(0, offset)))
            """)
        if let first = found.first {
            return GuestListPage(
                guests: try found.map(Self.guest), total: Int(try first["list_total"].decode(Int64.self)),
                people: Int(try first["list_people"].decode(Int64.self)))
        }
        // An empty list, or a page past the end of one: the count alone, from its first row.
        guard offset > 0 else { return GuestListPage(guests: [], total: 0, people: 0) }
        let count = try await guestList(event: event, query, offset: 0, limit: 1)
        return GuestListPage(guests: [], total: count.total, people: count.people)
    }

    public func counts(event: EventID) async throws -> EventCounts {
        let event = Int64(event.rawValue)
        let row = try await rows(
            """
            SELECT
                (SELECT COUNT(*) FROM guest WHERE event_id = \(event) AND status = 'active') AS guests,
                (SELECT COALESCE(SUM(party_size), 0)::bigint FROM guest WHERE event_id = \(event) AND status = 'active')
                    AS people,
                (SELECT COUNT(*) FROM guest WHERE event_id = \(event) AND status = 'cancelled') AS cancelled,
                (SELECT COUNT(*) FROM check_in c JOIN guest g ON g.event_id = c.event_id AND g.id = c.guest_id
                 WHERE c.event_id = \(event) AND g.status = 'active') AS checked_in,
                (SELECT COALESCE(SUM(c.arrived), 0)::bigint FROM check_in c
                 JOIN guest g ON g.event_id = c.event_id AND g.id = c.guest_id
                 WHERE c.event_id = \(event) AND g.status = 'active') AS arrived
            """
        ).first
        func value(_ name: String) throws -> Int { Int(try row?[name].decode(Int64.self) ?? 0) }
        return EventCounts(
            guests: try value("guests"), expectedPeople: try value("people"), checkedIn: try value("checked_in"),
            arrivedPeople: try value("arrived"), cancelled: try value("cancelled"))
    }

    public func arrivals(event: EventID, since: Date?, alertedOnly: Bool, limit: Int) async throws -> [Guest] {
        try await rows(
            """
            SELECT \(unescaped: Self.guestColumns) FROM check_in c
            JOIN guest g ON g.event_id = c.event_id AND g.id = c.guest_id
            WHERE c.event_id = \(Int64(event.rawValue))
                AND (\(since)::timestamptz IS NULL OR c.corrected_time >= \(since))
                AND (NOT \(alertedOnly) OR (g.arrival_alert IS NOT NULL AND g.arrival_alert <> ''))
            ORDER BY c.corrected_time DESC, c.guest_id LIMIT \(Int64(limit))
            """
        ).map(Self.guest)
    }

    public func checkInTimes(event: EventID, since: Date) async throws -> [DoorTime] {
        try await rows(
            """
            SELECT door, corrected_time FROM check_in
            WHERE event_id = \(Int64(event.rawValue)) AND corrected_time >= \(since)
            """
        ).map { row in
            DoorTime(door: try row["door"].decode(String.self), at: try row["corrected_time"].decode(Date.self))
        }
    }
}
