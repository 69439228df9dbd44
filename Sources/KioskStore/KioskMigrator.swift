internal import GRDB

/// Brings a database's schema up to date with GRDB's `DatabaseMigrator`, and refuses a database written by a
/// newer kiosk (a migration it does not know) before touching it.
struct KioskMigrator {
    var migrations: [Migration]

    var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in migrations.sorted(by: { $0.number < $1.number }) {
            migrator.registerMigration(migration.identifier) { db in try db.execute(sql: migration.sql) }
        }
        return migrator
    }

    /// Applies what is missing. An up-to-date database is only read: opening it takes no write lock.
    func migrate(_ database: any DatabaseWriter) throws {
        let migrator = self.migrator
        let upToDate = try database.read { db in
            try checkKnown(db, migrator)
            return try !LegacyMigrationTable.needsAdoption(db) && migrator.hasCompletedMigrations(db)
        }
        guard !upToDate else { return }
        try database.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                try LegacyMigrationTable.adopt(db, known: migrations)
                return .commit
            }
        }
        try migrator.migrate(database)
    }

    /// Throws `.unknownSchema` for a migration recorded in the file that this kiosk does not ship.
    func checkKnown(_ db: Database) throws { try checkKnown(db, migrator) }

    private func checkKnown(_ db: Database, _ migrator: DatabaseMigrator) throws {
        let known = Set(migrations.map(\.identifier))
        if let unknown = try migrator.appliedIdentifiers(db).subtracting(known).sorted().first {
            throw StoreError(
                kind: .unknownSchema, resultCode: 0,
                message: "migration '\(unknown)' is newer than this kiosk",
                operation: "checking migrations", path: "")
        }
        try LegacyMigrationTable.checkKnown(db, known: migrations)
    }
}
