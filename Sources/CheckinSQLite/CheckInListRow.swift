import CheckinCore
import EntryRules
import Foundation
import GRDB
import PassFormat

/// A row of `checkin_list` (migration 0013); `rules` is `ListRules.json`.
struct CheckInListRow: SnakeCaseRecord {
    static let databaseTableName = "checkin_list"
    var id: Int64?
    var eventId: Int64
    var name: String
    var rules: String
    var capacity: Int?
    var version: Int
    var createdAt: Date

    enum Columns {
        static let eventId = Column("event_id")
        static let name = Column("name")
    }

    init(_ list: NewCheckInList, event: EventID, version: Int, at time: Date) {
        self.init(
            id: nil, eventId: Int64(event.rawValue), name: list.name, rules: list.rules.json, capacity: list.capacity,
            version: version, createdAt: time)
    }

    init(
        id: Int64?, eventId: Int64, name: String, rules: String, capacity: Int?, version: Int, createdAt: Date
    ) {
        self.id = id
        self.eventId = eventId
        self.name = name
        self.rules = rules
        self.capacity = capacity
        self.version = version
        self.createdAt = createdAt
    }

    /// The list; stored rules that do not read (a hand-edited database) are named, never taken as "everyone".
    func list() throws -> CheckInList {
        guard let id, let rules = ListRules(json: rules) else {
            throw RepositoryError.notFound("the rules of check-in list \(id.map(String.init) ?? "?") (unreadable)")
        }
        return CheckInList(
            id: ListID(UInt32(id)), event: EventID(UInt32(eventId)), name: name, rules: rules, capacity: capacity,
            version: version, createdAt: createdAt)
    }
}

extension SQLiteCheckinRepository {
    /// The list every event is made with (in `createEvent`'s transaction).
    static func insertFirstList(_ db: Database, event: EventID, at time: Date) throws {
        var row = CheckInListRow(NewCheckInList(name: CheckInList.firstName), event: event, version: 1, at: time)
        try row.insert(db)
    }

    public func createList(_ list: NewCheckInList, event: EventID, at time: Date) async throws -> CheckInList {
        try await writer.write { db in
            guard try EventRow.exists(db, key: Int64(event.rawValue)) else {
                throw RepositoryError.notFound("event \(event)")
            }
            if try Self.listNamed(db, list.name, event: event) != nil {
                throw RepositoryError.duplicateList(list.name)
            }
            var row = CheckInListRow(list, event: event, version: 1, at: time)
            try row.insert(db)
            row.id = db.lastInsertedRowID
            return try row.list()
        }
    }

    public func lists(event: EventID) async throws -> [CheckInList] {
        try await writer.read { db in
            try CheckInListRow.filter(CheckInListRow.Columns.eventId == Int64(event.rawValue)).order(Column("id"))
                .fetchAll(db).map { try $0.list() }
        }
    }

    public func list(_ id: ListID) async throws -> CheckInList? {
        try await writer.read { db in try CheckInListRow.fetchOne(db, key: Int64(id.rawValue))?.list() }
    }

    public func updateList(_ id: ListID, _ values: NewCheckInList) async throws -> CheckInList {
        try await writer.write { db in
            guard var row = try CheckInListRow.fetchOne(db, key: Int64(id.rawValue)) else {
                throw RepositoryError.notFound("check-in list \(id)")
            }
            if let other = try Self.listNamed(db, values.name, event: EventID(UInt32(row.eventId))), other.id != row.id
            {
                throw RepositoryError.duplicateList(values.name)
            }
            row.name = values.name
            row.rules = values.rules.json
            row.capacity = values.capacity
            row.version += 1
            try row.update(db)
            return try row.list()
        }
    }

    public func setGate(_ gate: Gate, device: String) async throws {
        try await writer.write { db in
            guard var row = try DeviceRow.fetchOne(db, key: device) else {
                throw RepositoryError.notFound("device \(device)")
            }
            row.listId = gate.list.map { Int64($0.rawValue) }
            row.direction = gate.direction.rawValue
            try row.update(db)
        }
    }

    public func inside(event: EventID) async throws -> [ListID: Int] {
        try await writer.read { db in
            var inside: [ListID: Int] = [:]
            for row in try Row.fetchAll(
                db, sql: Self.insideSQL(event: "?"), arguments: [Int64(event.rawValue)])
            {
                inside[ListID(UInt32(row["list_id"] as Int64))] = row["inside"]
            }
            return inside
        }
    }

    public func passages(event: EventID) async throws -> [ListID: ListPassages] {
        try await writer.read { db in
            var passages: [ListID: ListPassages] = [:]
            for (sql, exits) in [(Self.arrivalsSQL(event: "?"), false), (Self.exitsSQL(event: "?"), true)] {
                for row in try Row.fetchAll(db, sql: sql, arguments: [Int64(event.rawValue)]) {
                    let list = ListID(UInt32(row["list_id"] as Int64))
                    let n: Int = row["n"]
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

    static func listNamed(_ db: Database, _ name: String, event: EventID) throws -> CheckInListRow? {
        try CheckInListRow.filter(
            CheckInListRow.Columns.eventId == Int64(event.rawValue) && CheckInListRow.Columns.name == name
        ).fetchOne(db)
    }
}
