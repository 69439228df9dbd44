/// One step of the schema: its SQL runs once per database, in a transaction. GRDB's `DatabaseMigrator`
/// records it in `grdb_migrations` by `identifier`; kiosks before GRDB recorded it in `kiosk_migrations` by
/// number and name (`LegacyMigrationTable` carries those over).
struct Migration: Sendable {
    var number: Int
    var name: String
    var sql: String

    /// The identifier GRDB records: number and name, so a renamed migration is noticed.
    var identifier: String { "\(number) \(name)" }
}
