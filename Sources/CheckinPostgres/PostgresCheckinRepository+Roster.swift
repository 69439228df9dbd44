import CheckinCore
import Foundation
import PassFormat
import PostgresNIO

extension PostgresCheckinRepository {
    static let guestColumns = """
        g.event_id, g.id, g.name, g.email, g.phone, g.party_size, g.access_type, g.check_in_note, g.arrival_alert,
        g.status, g.version, g.change_xid, g.change_seq, c.door AS check_in_door,
        c.corrected_time AS check_in_at, c.arrived AS check_in_arrived, c.device_id AS check_in_device,
        c.sequence AS check_in_sequence
        """

    /// The guest and its check-in (a left join on `check_in`).
    static func guest(_ row: PostgresRandomAccessRow) throws -> Guest {
        var checkIn: CheckInSummary?
        if let door = try row["check_in_door"].decode(String?.self) {
            checkIn = CheckInSummary(
                door: door, at: try row["check_in_at"].decode(Date.self),
                arrived: Int(try row["check_in_arrived"].decode(Int64.self)),
                deviceId: try row["check_in_device"].decode(String?.self),
                sequence: try row["check_in_sequence"].decode(Int64?.self))
        }
        return Guest(
            id: GuestID(text: try row["id"].decode(String.self))!,
            event: EventID(UInt32(try row["event_id"].decode(Int64.self))), name: try row["name"].decode(String.self),
            email: try row["email"].decode(String?.self), phone: try row["phone"].decode(String?.self),
            partySize: Int(try row["party_size"].decode(Int64.self)),
            ticketType: try row["access_type"].decode(String?.self),
            checkInNote: try row["check_in_note"].decode(String?.self),
            arrivalAlert: try row["arrival_alert"].decode(String?.self),
            status: GuestState(rawValue: try row["status"].decode(String.self)) ?? .active,
            version: try row["version"].decode(Int64.self), checkIn: checkIn)
    }

    public func addGuests(_ guests: [NewGuest], event: EventID, at time: Date) async throws -> [Guest] {
        try await transaction { connection in
            try await Self.insertGuests(connection, guests, event: event, at: time, logger: logger)
        }
    }

    public func importGuests(
        adding additions: [NewGuest], updating updates: [GuestImportPlan.Update], event: EventID, at time: Date
    ) async throws -> (added: [Guest], updated: [Guest]) {
        try await transaction { connection in
            let added = try await Self.insertGuests(connection, additions, event: event, at: time, logger: logger)
            var updated: [Guest] = []
            for update in updates {
                let values = update.guest
                let changed = try await connection.query(
                    """
                    UPDATE guest SET name = \(values.name), email = \(values.email), phone = \(values.phone),
                        party_size = \(Int64(values.partySize)), access_type = \(values.ticketType),
                        check_in_note = \(values.checkInNote), arrival_alert = \(values.arrivalAlert)
                    WHERE event_id = \(Int64(event.rawValue)) AND id = \(update.id.text) RETURNING id
                    """, logger: logger
                ).collect()
                guard !changed.isEmpty else { throw RepositoryError.notFound("guest \(update.id.text)") }
                try await Self.touchGuest(connection, update.id, event: event, at: time, logger: logger)
                updated.append(try await Self.guest(connection, update.id, event: event, logger: logger)!)
            }
            return (added, updated)
        }
    }

    static func insertGuests(
        _ connection: PostgresConnection, _ guests: [NewGuest], event: EventID, at time: Date, logger: Logger
    ) async throws -> [Guest] {
        let eventId = Int64(event.rawValue)
        guard let tenant = try await tenantOfEvent(connection, event, logger: logger) else {
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
                    \(Int64(guest.partySize)), \(guest.ticketType), \(guest.checkInNote), \(guest.arrivalAlert),
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
            try await startIssuance(connection, guest, tenant: tenant, at: time, logger: logger)
            added.append(guest)
        }
        return added
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

    public func reinstateGuest(_ id: GuestID, event: EventID, at time: Date) async throws -> Guest {
        try await transaction { connection in
            guard let guest = try await Self.guest(connection, id, event: event, lock: true, logger: logger) else {
                throw RepositoryError.notFound("guest \(id.text)")
            }
            if guest.status == .active { return guest }
            try await connection.query(
                "UPDATE guest SET status = 'active' WHERE event_id = \(Int64(event.rawValue)) AND id = \(id.text)",
                logger: logger)
            try await Self.touchGuest(connection, id, event: event, at: time, logger: logger)
            return try await Self.guest(connection, id, event: event, logger: logger)!
        }
    }

    // MARK: Roster pages and deltas

    /// The guest rows of one statement with the snapshot it read them in: `query` selects `pg_current_snapshot()`
    /// as `snap` beside the rows, in the same statement (so the same snapshot), and answers one row with only
    /// `snap` when nothing matched.
    func rowsWithSnapshot(_ connection: PostgresConnection, _ query: PostgresQuery) async throws
        -> (snapshot: ChangeSnapshot, rows: [PostgresRandomAccessRow])
    {
        let found = try await connection.query(query, logger: logger).collect().map { $0.makeRandomAccess() }
        guard let first = found.first else { throw RepositoryError.badCursor }
        let snapshot = try ChangeSnapshot(text: try first["snap"].decode(String.self))
        let rows = try found.filter { try $0["id"].decode(String?.self) != nil }
        return (snapshot, rows)
    }

    public func rosterPage(event: EventID, page: String?, limit: Int) async throws -> RosterSlice {
        let start = try page.map(RosterCursor.downloadPosition)
        return try await client.withConnection { [start] connection in
            let eventId = Int64(event.rawValue)
            // The first page's snapshot is the download's change cursor: every change it did not see (committed
            // later, or still running then) comes in a delta; every one it saw is in the pages (read later).
            let (snapshot, rows) = try await rowsWithSnapshot(
                connection,
                """
                SELECT s.snap, r.* FROM (SELECT pg_current_snapshot()::text AS snap) s
                LEFT JOIN LATERAL (
                    SELECT \(unescaped: Self.guestColumns) FROM guest g
                    LEFT JOIN check_in c ON c.event_id = g.event_id AND c.guest_id = g.id
                    WHERE g.event_id = \(eventId) AND g.id > \(start?.after ?? "")
                    ORDER BY g.id LIMIT \(Int64(limit + 1))
                ) r ON true
                ORDER BY r.id
                """)
            let changeCursor = start?.snapshot ?? snapshot
            let pageRows = Array(rows.prefix(limit))
            var total: Int?
            if start == nil {
                let counted = try await connection.query(
                    "SELECT count(*) AS n FROM guest WHERE event_id = \(eventId)", logger: logger
                ).collect()
                total = Int(try counted[0].makeRandomAccess()["n"].decode(Int64.self))
            }
            let next =
                rows.count > limit
                ? RosterCursor.downloadPage(changeCursor, after: try pageRows.last!["id"].decode(String.self)) : nil
            return RosterSlice(
                guests: try pageRows.map(Self.guest), nextPage: next,
                changeCursor: RosterCursor.changes(changeCursor).text, total: total)
        }
    }

    /// The rows of every transaction the cursor's snapshot did not see, read in a new snapshot that sees every
    /// change committed before this call (read-your-writes), in (transaction id, change number) order. A delta
    /// of several pages carries both snapshots and its position; its last page answers the new snapshot as the
    /// change cursor, unless a transaction the new snapshot saw running has since committed changes behind the
    /// position (a row moved back in the order while the pages were read): then the answer is not complete and
    /// its next page is a new delta from that snapshot.
    public func rosterChanges(event: EventID, since: String, limit: Int) async throws -> RosterSlice {
        let cursor = try RosterCursor(since)
        return try await client.withConnection { connection in
            let eventId = Int64(event.rawValue)
            let from: ChangeSnapshot
            var position: (snapshot: ChangeSnapshot, xid: Int64, seq: Int64)?
            switch cursor {
            case .changes(let snapshot):
                from = snapshot
            case .deltaPage(let since, let snapshot, let xid, let seq):
                from = since
                position = (snapshot, xid, seq)
            }
            // Every row of a transaction `from` did not see; after the position when this is a later page.
            let after = position.map { ($0.xid, $0.seq) } ?? (Int64.min, Int64.min)
            let (now, rows) = try await rowsWithSnapshot(
                connection,
                """
                SELECT s.snap, r.* FROM (SELECT pg_current_snapshot()::text AS snap) s
                LEFT JOIN LATERAL (
                    SELECT \(unescaped: Self.guestColumns) FROM guest g
                    LEFT JOIN check_in c ON c.event_id = g.event_id AND c.guest_id = g.id
                    WHERE g.event_id = \(eventId) AND g.change_xid >= \(from.lowestUnseen)
                        AND (g.change_xid >= \(from.xmax) OR g.change_xid = ANY(\(from.running)::bigint[]))
                        AND (g.change_xid, g.change_seq) > (\(after.0), \(after.1))
                    ORDER BY g.change_xid, g.change_seq LIMIT \(Int64(limit + 1))
                ) r ON true
                ORDER BY r.change_xid, r.change_seq
                """)
            let snapshot = position?.snapshot ?? now
            let pageRows = Array(rows.prefix(limit))
            let guests = try pageRows.map(Self.guest)
            if rows.count > limit, let last = pageRows.last {
                let next = RosterCursor.deltaPage(
                    since: from, snapshot: snapshot, xid: try last["change_xid"].decode(Int64.self),
                    seq: try last["change_seq"].decode(Int64.self)
                ).text
                return RosterSlice(guests: guests, nextPage: next, changeCursor: next, total: nil)
            }
            let end = RosterCursor.changes(snapshot).text
            if let position, !position.snapshot.running.isEmpty {
                let moved = try await connection.query(
                    """
                    SELECT 1 AS one FROM guest g WHERE g.event_id = \(eventId)
                        AND g.change_xid = ANY(\(position.snapshot.running)::bigint[])
                        AND (g.change_xid, g.change_seq) <= (\(position.xid), \(position.seq))
                    LIMIT 1
                    """, logger: logger
                ).collect()
                if !moved.isEmpty { return RosterSlice(guests: guests, nextPage: end, changeCursor: end, total: nil) }
            }
            return RosterSlice(guests: guests, nextPage: nil, changeCursor: end, total: nil)
        }
    }

    public func rosterChangesBehind(event: EventID, cursors: Set<String>) async throws -> [String: Int] {
        var read: [(cursor: String, snapshot: ChangeSnapshot)] = []
        for cursor in cursors {
            switch try? RosterCursor(cursor) {
            case .changes(let snapshot): read.append((cursor, snapshot))
            case .deltaPage(let since, _, _, _): read.append((cursor, since))
            case nil: continue
            }
        }
        guard !read.isEmpty else { return [:] }
        // One statement for every cursor (an index range count each), not one round trip per cursor.
        let rows = try await rows(
            """
            SELECT c.n AS position, (SELECT count(*) FROM guest g WHERE g.event_id = \(Int64(event.rawValue))
                AND g.change_xid >= c.low AND (g.change_xid >= c.xmax
                    OR g.change_xid = ANY(string_to_array(c.running, ',')::bigint[]))) AS behind
            FROM unnest(\(read.indices.map(Int64.init))::bigint[], \(read.map(\.snapshot.lowestUnseen))::bigint[],
                \(read.map(\.snapshot.xmax))::bigint[],
                \(read.map { $0.snapshot.running.map(String.init).joined(separator: ",") })::text[])
                AS c(n, low, xmax, running)
            """)
        var behind: [String: Int] = [:]
        for row in rows {
            let index = Int(try row["position"].decode(Int64.self))
            behind[read[index].cursor] = Int(try row["behind"].decode(Int64.self))
        }
        return behind
    }
}
