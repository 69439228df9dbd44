import struct Foundation.Date

/// One step of the schema: its SQL runs once per database, in a transaction, and is recorded in
/// `kiosk_migrations` by number and name.
struct Migration: Sendable {
    var number: Int
    var name: String
    var sql: String
}

extension SQLiteConnection {
    /// Applies each migration of `migrations` (ordered by number) that the database has not recorded yet,
    /// each in its own transaction. Refuses a database that records migrations this list does not hold (a
    /// newer kiosk wrote it) or under other names.
    func migrate(_ migrations: [Migration], at now: Date = Date()) throws {
        let known = Dictionary(uniqueKeysWithValues: migrations.map { ($0.number, $0.name) })
        let recorded = try recordedMigrations()
        for (number, name) in recorded where known[number] != name {
            let problem = known[number].map {
                "migration \(number) is recorded as '\(name)' but this kiosk calls it '\($0)'"
            } ?? "migration \(number) '\(name)' is newer than this kiosk"
            throw StoreError(kind: .unknownSchema, resultCode: 0, message: problem, operation: "checking migrations",
                             path: path)
        }
        // An up-to-date database is only read: opening it takes no write lock.
        for migration in migrations.sorted(by: { $0.number < $1.number }) where recorded[migration.number] == nil {
            try transaction("migration \(migration.number)") {
                try execute(Self.migrationsTableSQL, "creating the migrations table")
                // Read again inside the write lock: another process may have applied it meanwhile.
                let applied = try firstRow("SELECT 1 FROM kiosk_migrations WHERE number = ?1",
                                           name: "migration check", [.int(migration.number)]) { _ in true } ?? false
                guard !applied else { return }
                try execute(migration.sql, "applying migration \(migration.number) '\(migration.name)'")
                try run("INSERT INTO kiosk_migrations (number, name, applied_at) VALUES (?1, ?2, ?3)",
                        name: "migration record",
                        [.int(migration.number), .text(migration.name), .int(now.storeMilliseconds)])
            }
        }
    }

    private static let migrationsTableSQL = """
        CREATE TABLE IF NOT EXISTS kiosk_migrations (
            number     INTEGER PRIMARY KEY,
            name       TEXT    NOT NULL,
            applied_at INTEGER NOT NULL  -- ms since 1970
        )
        """

    /// The migrations recorded in the database, by number (none for a new file).
    func recordedMigrations() throws(StoreError) -> [Int: String] {
        let exists = try firstRow("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'kiosk_migrations'",
                                  name: "migrations table check") { _ in true } ?? false
        guard exists else { return [:] }
        let rows = try rows("SELECT number, name FROM kiosk_migrations", name: "migration list") {
            ($0.int(0), $0.text(1))
        }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }
}
