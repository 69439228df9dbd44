import CheckinCore
import Foundation
import KioskCore
import PostgresNIO

extension PostgresCheckinRepository {
    static let guestColumns = """
        g.event_id, g.id, g.name, g.email, g.phone, g.party_size, g.access_type, g.check_in_note, g.arrival_alert,
        g.status, g.version, g.change_xid, g.change_seq, c.door AS check_in_door,
        c.corrected_time AS check_in_at, c.arrived AS check_in_arrived
        """

    /// The guest and its check-in (a left join on `check_in`).
    static func guest(_ row: PostgresRandomAccessRow) throws -> Guest {
        var checkIn: CheckInSummary?
        if let door = try row["check_in_door"].decode(String?.self) {
            checkIn = CheckInSummary(
                door: door, at: try row["check_in_at"].decode(Date.self),
                arrived: Int(try row["check_in_arrived"].decode(Int64.self)))
        }
        return Guest(
            id: GuestID(text: try row["id"].decode(String.self))!,
            event: EventID(UInt32(try row["event_id"].decode(Int64.self))), name: try row["name"].decode(String.self),
            email: try row["email"].decode(String?.self), phone: try row["phone"].decode(String?.self),
            partySize: Int(try row["party_size"].decode(Int64.self)),
            accessType: try row["access_type"].decode(String?.self),
            checkInNote: try row["check_in_note"].decode(String?.self),
            arrivalAlert: try row["arrival_alert"].decode(String?.self),
            status: GuestState(rawValue: try row["status"].decode(String.self)) ?? .active,
            version: try row["version"].decode(Int64.self), checkIn: checkIn)
    }

    public func addGuests(_ guests: [NewGuest], event: EventID, at time: Date) async throws -> [Guest] {
        try await transaction { connection in
            let eventId = Int64(event.rawValue)
            guard let tenant = try await Self.tenantOfEvent(connection, event, logger: logger) else {
                throw RepositoryError.notFound("event \(event)")
            }
            var added: [Guest] = []
            added.reserveCapacity(guests.count)
            for guest in guests {
                let inserted = try await connection.query(
                    """
                    INSERT INTO guest AS g (event_id, id, name, email, phone, party_size, access_type, check_in_note,
                        arrival_alert, status, version, change_xid, change_seq, updated_at)
                    VALUES (\(eventId), \(guest.id.text), \(guest.name), \(guest.email), \(guest.phone),
                        \(Int64(guest.partySize)), \(guest.accessType), \(guest.checkInNote), \(guest.arrivalAlert),
                        \(guest.status.rawValue), 1, pg_current_xact_id()::text::bigint, nextval('change_sequence'),
                        \(time))
                    ON CONFLICT (event_id, id) DO NOTHING
                    RETURNING g.event_id, g.id, g.name, g.email, g.phone, g.party_size, g.access_type,
                        g.check_in_note, g.arrival_alert, g.status, g.version, NULL::text AS check_in_door,
                        NULL::timestamptz AS check_in_at, NULL::bigint AS check_in_arrived
                    """, logger: logger
                ).collect()
                guard let row = inserted.first else { throw RepositoryError.duplicateGuest(guest.id.text) }
                let guest = try Self.guest(row.makeRandomAccess())
                try await Self.startIssuance(connection, guest, tenant: tenant, at: time, logger: logger)
                added.append(guest)
            }
            return added
        }
    }

    public func guest(_ id: GuestID, event: EventID) async throws -> Guest? {
        try await client.withConnection { try await Self.guest($0, id, event: event, logger: logger) }
    }

    static func guest(
        _ connection: PostgresConnection, _ id: GuestID, event: EventID, lock: Bool = false, logger: Logger
    ) async throws -> Guest? {
        // FOR UPDATE OF g: the guest row is the lock that orders every write about this guest.
        let rows = try await connection.query(
            """
            SELECT \(unescaped: guestColumns) FROM guest g
            LEFT JOIN check_in c ON c.event_id = g.event_id AND c.guest_id = g.id
            WHERE g.event_id = \(Int64(event.rawValue)) AND g.id = \(id.text)
            \(unescaped: lock ? "FOR UPDATE OF g" : "")
            """, logger: logger
        ).collect()
        return try rows.first.map { try guest($0.makeRandomAccess()) }
    }

    /// A change of what kiosks see of the guest: a new version, this transaction's id and a new change number.
    static func touchGuest(
        _ connection: PostgresConnection, _ id: GuestID, event: EventID, at time: Date, logger: Logger
    ) async throws {
        try await connection.query(
            """
            UPDATE guest SET version = version + 1, change_xid = pg_current_xact_id()::text::bigint,
                change_seq = nextval('change_sequence'), updated_at = \(time)
            WHERE event_id = \(Int64(event.rawValue)) AND id = \(id.text)
            """, logger: logger)
    }

    public func cancelGuest(_ id: GuestID, event: EventID, at time: Date) async throws -> Guest {
        try await transaction { connection in
            guard let guest = try await Self.guest(connection, id, event: event, lock: true, logger: logger) else {
                throw RepositoryError.notFound("guest \(id.text)")
            }
            if guest.status == .cancelled { return guest }
            try await connection.query(
                "UPDATE guest SET status = 'cancelled' WHERE event_id = \(Int64(event.rawValue)) AND id = \(id.text)",
                logger: logger)
            try await Self.touchGuest(connection, id, event: event, at: time, logger: logger)
            try await Self.cancelIssuances(
                connection, guest: id, event: event, reason: "the guest was cancelled", at: time, logger: logger)
            return try await Self.guest(connection, id, event: event, logger: logger)!
        }
    }

    // MARK: Roster pages and deltas

    // A change position is (transaction id, change number). Change cursor "x1:<xid>:<seq>": every change at or
    // before that position was delivered. Page cursor "p1:<xid>:<seq>:<last guest id>".

    static func changeCursor(_ position: (xid: Int64, seq: Int64)) -> String { "x1:\(position.xid):\(position.seq)" }

    static func changePosition(_ cursor: String) throws -> (xid: Int64, seq: Int64) {
        let parts = cursor.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "x1", let xid = Int64(parts[1]), let seq = Int64(parts[2]), xid >= 0
        else { throw RepositoryError.badCursor }
        return (xid, seq)
    }

    /// The horizon: no transaction of this database with an id below it is still running, so every change
    /// below it that will ever commit is visible to a statement that starts after this one. It is the
    /// snapshot's xmax lowered to the oldest transaction id still running in this database, read in one
    /// statement (the snapshot first, the running transactions after), so a transaction of another database
    /// (another test, another tenant's cluster) does not hold the deltas back. `pg_stat_activity` gives
    /// 32-bit ids: each is widened against the xmax's epoch.
    static func horizon(_ connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        let rows = try await connection.query(
            """
            WITH s AS (SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS xmax)
            SELECT LEAST(s.xmax, (
                SELECT min(s.xmax - ((s.xmax % 4294967296) - a.backend_xid::text::bigint + 4294967296) % 4294967296)
                FROM pg_stat_activity a
                WHERE a.datname = current_database() AND a.backend_xid IS NOT NULL
                    AND a.pid <> pg_backend_pid()
            )) AS horizon FROM s
            """, logger: logger
        ).collect()
        // Drop the cached pg_stat_activity of this session (a later call must read it again).
        try await connection.query("SELECT pg_stat_clear_snapshot()", logger: logger)
        return try rows[0].makeRandomAccess()["horizon"].decode(Int64.self)
    }

    public func rosterPage(event: EventID, page: String?, limit: Int) async throws -> RosterSlice {
        var start: (xid: Int64, seq: Int64)?
        var after: String?
        if let page {
            let parts = page.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 4, parts[0] == "p1", let xid = Int64(parts[1]), let seq = Int64(parts[2]),
                GuestID(text: String(parts[3])) != nil
            else { throw RepositoryError.badCursor }
            start = (xid, seq)
            after = String(parts[3])
        }
        return try await client.withConnection { [start, after] connection in
            let eventId = Int64(event.rawValue)
            // Taken before the rows are read: a change that commits during the download comes in a delta.
            let startPosition: (xid: Int64, seq: Int64)
            if let start {
                startPosition = start
            } else {
                startPosition = (try await Self.horizon(connection, logger: logger) - 1, Int64.max)
            }
            let rows = try await connection.query(
                """
                SELECT \(unescaped: Self.guestColumns) FROM guest g
                LEFT JOIN check_in c ON c.event_id = g.event_id AND c.guest_id = g.id
                WHERE g.event_id = \(eventId) AND g.id > \(after ?? "")
                ORDER BY g.id LIMIT \(Int64(limit + 1))
                """, logger: logger
            ).collect().map { try Self.guest($0.makeRandomAccess()) }
            let pageRows = Array(rows.prefix(limit))
            var total: Int?
            if start == nil {
                let counted = try await connection.query(
                    "SELECT count(*) AS n FROM guest WHERE event_id = \(eventId)", logger: logger
                ).collect()
                total = Int(try counted[0].makeRandomAccess()["n"].decode(Int64.self))
            }
            let next =
                rows.count > limit ? "p1:\(startPosition.xid):\(startPosition.seq):\(pageRows.last!.id.text)" : nil
            return RosterSlice(
                guests: pageRows, nextPage: next, changeCursor: Self.changeCursor(startPosition), total: total)
        }
    }

    public func rosterChanges(event: EventID, since: String, limit: Int) async throws -> RosterSlice {
        let since = try Self.changePosition(since)
        return try await client.withConnection { connection in
            let eventId = Int64(event.rawValue)
            // First the horizon, then (a later statement, so a later snapshot) the rows below it.
            let horizon = try await Self.horizon(connection, logger: logger)
            let rows = try await connection.query(
                """
                SELECT \(unescaped: Self.guestColumns) FROM guest g
                LEFT JOIN check_in c ON c.event_id = g.event_id AND c.guest_id = g.id
                WHERE g.event_id = \(eventId) AND g.change_xid < \(horizon)
                    AND (g.change_xid, g.change_seq) > (\(since.xid), \(since.seq))
                ORDER BY g.change_xid, g.change_seq LIMIT \(Int64(limit + 1))
                """, logger: logger
            ).collect().map { $0.makeRandomAccess() }
            let pageRows = Array(rows.prefix(limit))
            let guests = try pageRows.map(Self.guest)
            if rows.count > limit, let last = pageRows.last {
                let cursor = Self.changeCursor(
                    (try last["change_xid"].decode(Int64.self), try last["change_seq"].decode(Int64.self)))
                return RosterSlice(guests: guests, nextPage: cursor, changeCursor: cursor, total: nil)
            }
            // Everything below the horizon is delivered; never move a cursor back.
            let end: (xid: Int64, seq: Int64) = horizon - 1 >= since.xid ? (horizon - 1, Int64.max) : since
            return RosterSlice(guests: guests, nextPage: nil, changeCursor: Self.changeCursor(end), total: nil)
        }
    }

    public func rosterChangesBehind(event: EventID, cursors: Set<String>) async throws -> [String: Int] {
        let positions = cursors.compactMap { cursor in (try? Self.changePosition(cursor)).map { (cursor, $0) } }
        guard !positions.isEmpty else { return [:] }
        // One statement for every cursor (an index range count each), not one round trip per cursor.
        let rows = try await rows(
            """
            SELECT c.xid, c.seq, (SELECT count(*) FROM guest g WHERE g.event_id = \(Int64(event.rawValue))
                AND (g.change_xid, g.change_seq) > (c.xid, c.seq)) AS n
            FROM unnest(\(positions.map(\.1.xid))::bigint[], \(positions.map(\.1.seq))::bigint[]) AS c(xid, seq)
            """)
        var counts: [String: Int] = [:]
        for row in rows {
            counts["\(try row["xid"].decode(Int64.self)):\(try row["seq"].decode(Int64.self))"] = Int(
                try row["n"].decode(Int64.self))
        }
        var behind: [String: Int] = [:]
        for (cursor, position) in positions { behind[cursor] = counts["\(position.xid):\(position.seq)"] ?? 0 }
        return behind
    }
}
