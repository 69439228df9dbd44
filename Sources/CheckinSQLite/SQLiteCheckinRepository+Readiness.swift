import CheckinCore
import GRDB

extension SQLiteCheckinRepository {
    public func schemaStatus() async throws -> SchemaStatus {
        let migrator = Self.migrator(secrets: secrets)
        let applied = try await writer.read { db in try migrator.appliedIdentifiers(db) }
        return SchemaStatus(known: migrator.migrations, applied: Array(applied))
    }
}
