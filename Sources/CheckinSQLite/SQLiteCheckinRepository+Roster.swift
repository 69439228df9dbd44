import CheckinCore
import Foundation
import GRDB
import PassFormat

extension SQLiteCheckinRepository {
    public func addGuests(_ guests: [NewGuest], event: EventID, at time: Date) async throws -> [Guest] {
        try await writer.write { db in try Self.insertGuests(db, guests, event: event, at: time) }
    }

    public func importGuests(
        adding additions: [NewGuest], updating updates: [GuestImportPlan.Update], event: EventID, at time: Date
    ) async throws -> (added: [Guest], updated: [Guest]) {
        try await writer.write { db in
            let added = try Self.insertGuests(db, additions, event: event, at: time)
            var updated: [Guest] = []
            for update in updates {
                let values = update.guest
                try db.execute(
                    sql: """
                        UPDATE guest SET name = ?, email = ?, phone = ?, party_size = ?, access_type = ?,
                            check_in_note = ?, arrival_alert = ?
                        WHERE event_id = ? AND id = ?
                        """,
                    arguments: [
                        values.name, values.email, values.phone, values.partySize, values.ticketType,
                        values.checkInNote, values.arrivalAlert, Int64(event.rawValue), update.id.text,
                    ])
                guard db.changesCount == 1 else { throw RepositoryError.notFound("guest \(update.id.text)") }
                try Self.touchGuest(db, update.id, event: event, at: time)
                updated.append(try Self.guest(db, update.id, event: event)!)
            }
            return (added, updated)
        }
    }

    static func insertGuests(_ db: Database, _ guests: [NewGuest], event: EventID, at time: Date) throws -> [Guest] {
        guard let tenant = try tenantOfEvent(db, event) else {
            throw RepositoryError.notFound("event \(event)")
        }
        var added: [Guest] = []
        added.reserveCapacity(guests.count)
        for guest in guests {
            let row = GuestRow(guest, event: event, changeSeq: try nextChange(db), at: time)
            if try GuestRow.exists(db, key: ["event_id": row.eventId, "id": row.id]) {
                throw RepositoryError.duplicateGuest(row.id)
            }
            try row.insert(db)
            let guest = row.guest(checkIn: nil)
            try startIssuance(db, guest, tenant: tenant, at: time)
            added.append(guest)
        }
        return added
    }

    public func guest(_ id: GuestID, event: EventID) async throws -> Guest? {
        try await writer.read { db in try Self.guest(db, id, event: event) }
    }

    static func guest(_ db: Database, _ id: GuestID, event: EventID) throws -> Guest? {
        let key: [String: (any DatabaseValueConvertible)?] = ["event_id": Int64(event.rawValue), "id": id.text]
        guard let row = try GuestRow.fetchOne(db, key: key) else { return nil }
        // `check_in` is a view (migration 0014): filtered, not fetched by a key it does not have.
        let checkIn = try CheckInRow.filter(
            CheckInRow.Columns.eventId == Int64(event.rawValue) && CheckInRow.Columns.guestId == id.text
        ).fetchOne(db)
        return row.guest(checkIn: checkIn)
    }

    /// A change of what kiosks see of the guest: a new version and a new place in the change sequence.
    static func touchGuest(_ db: Database, _ id: GuestID, event: EventID, at time: Date) throws {
        try db.cachedStatement(
            sql: "UPDATE guest SET version = version + 1, change_seq = ?, updated_at = ? WHERE event_id = ? AND id = ?"
        ).execute(arguments: [try nextChange(db), time, Int64(event.rawValue), id.text])
    }

    public func cancelGuest(_ id: GuestID, event: EventID, at time: Date) async throws -> Guest {
        try await writer.write { db in
            guard let guest = try Self.guest(db, id, event: event) else {
                throw RepositoryError.notFound("guest \(id.text)")
            }
            if guest.status == .cancelled { return guest }
            try db.execute(
                sql: "UPDATE guest SET status = 'cancelled' WHERE event_id = ? AND id = ?",
                arguments: [Int64(event.rawValue), id.text])
            try Self.touchGuest(db, id, event: event, at: time)
            try Self.cancelIssuances(db, guest: id, event: event, reason: "the guest was cancelled", at: time)
            return try Self.guest(db, id, event: event)!
        }
    }

    public func reinstateGuest(_ id: GuestID, event: EventID, at time: Date) async throws -> Guest {
        try await writer.write { db in
            guard let guest = try Self.guest(db, id, event: event) else {
                throw RepositoryError.notFound("guest \(id.text)")
            }
            if guest.status == .active { return guest }
            try db.execute(
                sql: "UPDATE guest SET status = 'active' WHERE event_id = ? AND id = ?",
                arguments: [Int64(event.rawValue), id.text])
            try Self.touchGuest(db, id, event: event, at: time)
            return try Self.guest(db, id, event: event)!
        }
    }

    // MARK: Roster pages and deltas

    // Page cursor "p1:<change cursor at the start>:<last guest id>"; change cursor "c1:<sequence value>".

    static func changeCursor(_ value: Int64) -> String { "c1:\(value)" }

    static func changeValue(_ cursor: String) throws -> Int64 {
        guard cursor.hasPrefix("c1:"), let value = Int64(cursor.dropFirst(3)), value >= 0 else {
            throw RepositoryError.badCursor
        }
        return value
    }

    public func rosterPage(event: EventID, page: String?, limit: Int) async throws -> RosterSlice {
        var start: Int64?
        var after: String?
        if let page {
            let parts = page.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "p1", let value = Int64(parts[1]),
                GuestID(text: String(parts[2])) != nil
            else { throw RepositoryError.badCursor }
            start = value
            after = String(parts[2])
        }
        return try await writer.read { [start, after] db in
            let eventId = Int64(event.rawValue)
            let startValue = try start ?? Self.currentChange(db)
            let rows =
                if let after {
                    try RosterRow.fetchAll(
                        db,
                        sql: """
                            SELECT \(RosterRow.selection) FROM guest WHERE event_id = ? AND id > ? ORDER BY id LIMIT ?
                            """, arguments: [eventId, after, limit + 1])
                } else {
                    try RosterRow.fetchAll(
                        db, sql: "SELECT \(RosterRow.selection) FROM guest WHERE event_id = ? ORDER BY id LIMIT ?",
                        arguments: [eventId, limit + 1])
                }
            let pageRows = Array(rows.prefix(limit))
            let guests = try Self.withCheckIns(db, pageRows, event: eventId)
            let total = start == nil ? try GuestRow.filter(GuestRow.Columns.eventId == eventId).fetchCount(db) : nil
            let next = rows.count > limit ? "p1:\(startValue):\(pageRows.last!.id)" : nil
            return RosterSlice(
                guests: guests, nextPage: next, changeCursor: Self.changeCursor(startValue), total: total)
        }
    }

    public func rosterChanges(event: EventID, since: String, limit: Int) async throws -> RosterSlice {
        let sinceValue = try Self.changeValue(since)
        return try await writer.read { db in
            let eventId = Int64(event.rawValue)
            let current = try Self.currentChange(db)
            let rows = try RosterRow.fetchAll(
                db,
                sql: """
                    SELECT \(RosterRow.selection) FROM guest WHERE event_id = ? AND change_seq > ?
                    ORDER BY change_seq LIMIT ?
                    """, arguments: [eventId, sinceValue, limit + 1])
            let pageRows = Array(rows.prefix(limit))
            let guests = try Self.withCheckIns(db, pageRows, event: eventId)
            if rows.count > limit {
                let cursor = Self.changeCursor(pageRows.last!.changeSeq)
                return RosterSlice(guests: guests, nextPage: cursor, changeCursor: cursor, total: nil)
            }
            return RosterSlice(
                guests: guests, nextPage: nil, changeCursor: Self.changeCursor(max(current, sinceValue)), total: nil)
        }
    }

    public func rosterChangesBehind(event: EventID, cursors: Set<String>) async throws -> [String: Int] {
        let values = cursors.compactMap { cursor in (try? Self.changeValue(cursor)).map { (cursor, $0) } }
        guard !values.isEmpty else { return [:] }
        return try await writer.read { db in
            var behind: [String: Int] = [:]
            // One statement per 400 cursors (one index range count each), not one statement per cursor.
            for chunk in stride(from: 0, to: values.count, by: 400).map({ values[$0..<min($0 + 400, values.count)] }) {
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT c.column1 AS since, (SELECT count(*) FROM guest
                            WHERE event_id = ? AND change_seq > c.column1) AS behind
                        FROM (VALUES \(chunk.map { _ in "(?)" }.joined(separator: ", "))) AS c
                        """, arguments: StatementArguments([Int64(event.rawValue)] + chunk.map(\.1)))
                var counts: [Int64: Int] = [:]
                for row in rows { counts[row["since"]] = row["behind"] }
                for (cursor, value) in chunk { behind[cursor] = counts[value] ?? 0 }
            }
            return behind
        }
    }

    /// The guests of `rows` with their check-ins, read in one query (a page holds at most 500 guests, under
    /// SQLite's 999 bound parameters of old versions).
    static func withCheckIns(_ db: Database, _ rows: [RosterRow], event: Int64) throws -> [Guest] {
        guard !rows.isEmpty else { return [] }
        let placeholders = Array(repeating: "?", count: rows.count).joined(separator: ", ")
        let statement = try db.cachedStatement(
            sql: """
                SELECT guest_id, door, corrected_time, arrived, device_id, sequence FROM check_in
                WHERE event_id = ? AND guest_id IN (\(placeholders))
                """)
        let cursor = try Row.fetchCursor(
            statement, arguments: StatementArguments([event.databaseValue] + rows.map(\.id.databaseValue)))
        var byGuest: [String: CheckInSummary] = [:]
        while let row = try cursor.next() {
            let guest: String = row["guest_id"]
            if byGuest[guest] == nil {
                byGuest[guest] = CheckInSummary(
                    door: row["door"], at: row["corrected_time"], arrived: row["arrived"], deviceId: row["device_id"],
                    sequence: row["sequence"])
            }
        }
        let eventID = EventID(UInt32(event))
        return rows.map { $0.guest(event: eventID, checkIn: byGuest[$0.id]) }
    }
}
