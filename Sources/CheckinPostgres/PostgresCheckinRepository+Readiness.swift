import CheckinCore
import PostgresNIO

extension PostgresCheckinRepository {
    public func schemaStatus() async throws -> SchemaStatus {
        var applied: [String] = []
        for try await number in try await client.query("SELECT number FROM schema_migrations", logger: logger)
            .decode(Int64.self)
        {
            applied.append(String(number))
        }
        return SchemaStatus(known: Self.migrations.map { String($0.number) }, applied: applied)
    }
}
