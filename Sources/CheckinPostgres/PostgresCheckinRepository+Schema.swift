import CheckinCore
import Logging
import PostgresNIO

extension PostgresCheckinRepository {
    /// The last schema step this version knows.
    public static var latestSchemaStep: Int64 { migrations.last?.number ?? 0 }

    /// Names this version's schema: its last step and a hash (FNV-1a, 64 bits) of every step's name and SQL, so a
    /// database migrated by another version is told apart (the tests keep one migrated template per schema).
    public static var schemaFingerprint: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for step in migrations {
            for byte in "\(step.number)\u{0}\(step.name)\u{0}\(step.sql)\u{0}".utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
        }
        return "\(latestSchemaStep)_" + String(hash, radix: 16)
    }
}

extension PostgresCheckinRepository {
    /// Brings the database's schema up to date (`migrate()`) on a client of its own, run for that only: the
    /// server's own client, its HTTP server and its workers start once this returns, so nothing reads or writes
    /// a schema half made.
    public static func migrate(
        configuration: PostgresClient.Configuration, secrets: any SecretSealing, logger: Logger
    ) async throws {
        var configuration = configuration
        configuration.options.maximumConnections = 1
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            try await PostgresCheckinRepository(client: client, secrets: secrets, logger: logger).migrate()
        }
    }
}
