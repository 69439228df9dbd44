internal import GRDB

/// The migrations table of kiosks before GRDB: `kiosk_migrations (number, name, applied_at)`. A database
/// that has one is upgraded in place: its migrations are recorded for GRDB (`grdb_migrations`) as applied, so
/// they do not run again and the pending queue stays. The old table is kept, unchanged, as history.
enum LegacyMigrationTable {
    static let tableName = "kiosk_migrations"
    private static let number = Column("number"), name = Column("name")

    /// The migrations the old table records, by number.
    static func recorded(_ db: Database) throws -> [Int: String] {
        guard try db.tableExists(tableName) else { return [:] }
        var recorded: [Int: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT number, name FROM kiosk_migrations") {
            recorded[try row.int(number)] = try row.text(name)
        }
        return recorded
    }

    /// Whether the old table records a migration GRDB's table does not (yet).
    static func needsAdoption(_ db: Database) throws -> Bool {
        let recorded = try recorded(db)
        guard !recorded.isEmpty else { return false }
        guard try db.tableExists("grdb_migrations") else { return true }
        let adopted = try Set(String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
        return recorded.contains { !adopted.contains(Migration(number: $0.key, name: $0.value, sql: "").identifier) }
    }

    /// Records the old table's migrations in GRDB's table (in the caller's write transaction).
    static func adopt(_ db: Database, known: [Migration]) throws {
        let recorded = try recorded(db)
        guard !recorded.isEmpty else { return }
        try checkKnown(db, known: known)
        // The table exactly as DatabaseMigrator creates it.
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        for migration in known where recorded[migration.number] != nil {
            try db.execute(
                sql: "INSERT OR IGNORE INTO grdb_migrations (identifier) VALUES (:identifier)",
                arguments: ["identifier": migration.identifier])
        }
    }

    /// Refuses an old table that records a migration this kiosk does not ship, or under another name.
    static func checkKnown(_ db: Database, known: [Migration]) throws {
        let names = Dictionary(uniqueKeysWithValues: known.map { ($0.number, $0.name) })
        for (number, name) in try recorded(db).sorted(by: { $0.key < $1.key }) where names[number] != name {
            let problem =
                names[number].map {
                    "migration \(number) is recorded as '\(name)' but this kiosk calls it '\($0)'"
                } ?? "migration \(number) '\(name)' is newer than this kiosk"
            throw StoreError(
                kind: .unknownSchema, resultCode: 0, message: problem, operation: "checking migrations",
                path: "")
        }
    }
}
