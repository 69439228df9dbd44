import CheckinCore
import PostgresNIO

extension PostgresCheckinRepository {
    /// A database never migrated (no `schema_migrations` yet) has every step missing; it still answers.
    public func schemaStatus() async throws -> SchemaStatus {
        var applied: [String] = []
        var exists = false
        for try await found in try await client.query(
            "SELECT to_regclass('schema_migrations') IS NOT NULL", logger: logger
        ).decode(Bool.self) {
            exists = found
        }
        if exists {
            let rows = try await client.query("SELECT number FROM schema_migrations", logger: logger)
            for try await number in rows.decode(Int64.self) { applied.append(String(number)) }
        }
        return SchemaStatus(known: Self.migrations.map { String($0.number) }, applied: applied)
    }
}
