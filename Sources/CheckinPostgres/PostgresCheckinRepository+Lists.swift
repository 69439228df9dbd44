import CheckinCore
import EntryRules
import Foundation
import PassFormat
import PostgresNIO

extension PostgresCheckinRepository {
    static let listColumns = "id, event_id, name, rules, capacity, version, created_at"

    /// The list; stored rules that do not read (a hand-edited database) are named, never taken as "everyone".
    static func list(_ row: PostgresRandomAccessRow) throws -> CheckInList {
        let id = try row["id"].decode(Int64.self)
        guard let rules = ListRules(json: try row["rules"].decode(String.self)) else {
            throw RepositoryError.notFound("the rules of check-in list \(id) (unreadable)")
        }
        return CheckInList(
            id: ListID(UInt32(id)), event: EventID(UInt32(try row["event_id"].decode(Int64.self))),
            name: try row["name"].decode(String.self), rules: rules,
            capacity: try row["capacity"].decode(Int64?.self).map { Int($0) },
            version: Int(try row["version"].decode(Int64.self)), createdAt: try row["created_at"].decode(Date.self))
    }

    /// The list every event is made with (in `createEvent`'s transaction).
    static func insertFirstList(_ connection: PostgresConnection, event: Int64, at time: Date, logger: Logger)
        async throws
    {
        try await connection.query(
            """
            INSERT INTO checkin_list (event_id, name, rules, version, created_at)
            VALUES (\(event), \(CheckInList.firstName), \(ListRules.everyone.json), 1, \(time))
            """, logger: logger)
    }

    public func createList(_ list: NewCheckInList, event: EventID, at time: Date) async throws -> CheckInList {
        try await transaction { connection in
            let exists = try await connection.query(
                "SELECT 1 AS one FROM event WHERE id = \(Int64(event.rawValue))", logger: logger
            ).collect()
            guard !exists.isEmpty else { throw RepositoryError.notFound("event \(event)") }
            // ON CONFLICT: two organizers naming a list alike at once; the second is told.
            let rows = try await connection.query(
                """
                INSERT INTO checkin_list (event_id, name, rules, capacity, version, created_at)
                VALUES (\(Int64(event.rawValue)), \(list.name), \(list.rules.json), \(list.capacity.map(Int64.init)),
                    1, \(time))
                ON CONFLICT (event_id, name) DO NOTHING
                RETURNING \(unescaped: Self.listColumns)
                """, logger: logger
            ).collect()
            guard let row = rows.first else { throw RepositoryError.duplicateList(list.name) }
            return try Self.list(row.makeRandomAccess())
        }
    }

    public func lists(event: EventID) async throws -> [CheckInList] {
        let rows = try await client.query(
            """
            SELECT \(unescaped: Self.listColumns) FROM checkin_list WHERE event_id = \(Int64(event.rawValue))
            ORDER BY id
            """, logger: logger
        ).collect()
        return try rows.map { try Self.list($0.makeRandomAccess()) }
    }

    public func list(_ id: ListID) async throws -> CheckInList? {
        let rows = try await client.query(
            "SELECT \(unescaped: Self.listColumns) FROM checkin_list WHERE id = \(Int64(id.rawValue))", logger: logger
        ).collect()
        return try rows.first.map { try Self.list($0.makeRandomAccess()) }
    }

    public func updateList(_ id: ListID, _ values: NewCheckInList) async throws -> CheckInList {
        try await transaction { connection in
            let clash = try await connection.query(
                """
                SELECT 1 AS one FROM checkin_list AS other, checkin_list AS this
                WHERE this.id = \(Int64(id.rawValue)) AND other.event_id = this.event_id
                    AND other.name = \(values.name) AND other.id <> this.id
                """, logger: logger
            ).collect()
            guard clash.isEmpty else { throw RepositoryError.duplicateList(values.name) }
            let rows = try await connection.query(
                """
                UPDATE checkin_list SET name = \(values.name), rules = \(values.rules.json),
                    capacity = \(values.capacity.map(Int64.init)), version = version + 1
                WHERE id = \(Int64(id.rawValue))
                RETURNING \(unescaped: Self.listColumns)
                """, logger: logger
            ).collect()
            guard let row = rows.first else { throw RepositoryError.notFound("check-in list \(id)") }
            return try Self.list(row.makeRandomAccess())
        }
    }

    public func setGate(_ gate: Gate, device: String) async throws {
        let rows = try await client.query(
            """
            UPDATE device SET list_id = \(gate.list.map { Int64($0.rawValue) }), direction = \(gate.direction.rawValue)
            WHERE id = \(device) RETURNING id
            """, logger: logger
        ).collect()
        guard !rows.isEmpty else { throw RepositoryError.notFound("device \(device)") }
    }

    public func inside(event: EventID) async throws -> [ListID: Int] {
        let sql = Self.insideSQL(event: "$1")
        var bindings = PostgresBindings()
        bindings.append(Int64(event.rawValue))
        let rows = try await client.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger).collect()
        var inside: [ListID: Int] = [:]
        for row in rows {
            let row = row.makeRandomAccess()
            inside[ListID(UInt32(try row["list_id"].decode(Int64.self)))] = Int(try row["inside"].decode(Int64.self))
        }
        return inside
    }

    public func passages(event: EventID) async throws -> [ListID: ListPassages] {
        var passages: [ListID: ListPassages] = [:]
        for (sql, exits) in [(Self.arrivalsSQL(event: "$1"), false), (Self.exitsSQL(event: "$1"), true)] {
            var bindings = PostgresBindings()
            bindings.append(Int64(event.rawValue))
            let rows = try await client.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger).collect()
            for row in rows {
                let row = row.makeRandomAccess()
                let list = ListID(UInt32(try row["list_id"].decode(Int64.self)))
                let n = Int(try row["n"].decode(Int64.self))
                if exits {
                    passages[list, default: ListPassages()].exits = n
                } else {
                    passages[list, default: ListPassages()].arrivals = n
                }
            }
        }
        return passages
    }
}
