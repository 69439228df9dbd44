import CheckinCore
import CheckinPostgres
import CheckinServer
import Foundation
import Logging
import PostgresNIO
import PostgresTestSupport
import TestSupport
import Testing

@testable import CheckinAdmin

/// A fresh database on the test server (scripts/postgres.sh), one per test, so tests never see each other's rows:
/// migrated (a copy of the migrated template) or empty (for the tests of migration itself). A suite marked
/// `.dropsTestDatabases` drops it, and stops its clients, when each test ends.
struct PostgresTestDatabase: Sendable {
    let configuration: PostgresClient.Configuration
    /// The database's URL, for `checkin-server --postgres`.
    let url: String
    /// The key its secrets are sealed with.
    let secrets: SecretsKey = try! SecretsKey.random()

    typealias NoServer = TestPostgres.NoServer

    static func url() throws -> String { try TestPostgres.url() }

    /// An empty database: no schema yet.
    static func make() async throws -> PostgresTestDatabase { try await make(migrated: false) }

    /// A database with this version's schema (its secrets key is bound by the first `migrate()`).
    static func migrated() async throws -> PostgresTestDatabase { try await make(migrated: true) }

    private static func make(migrated: Bool) async throws -> PostgresTestDatabase {
        let (name, url) = try await TestDatabases.make(migrated: migrated)
        var configuration = PostgresClient.Configuration(url: url)!
        configuration.database = name
        configuration.options.maximumConnections = 12
        return PostgresTestDatabase(configuration: configuration, url: url)
    }

    /// A running client on this database (one "server process").
    func client() -> PostgresClient {
        let client = PostgresClient(configuration: configuration)
        TestDatabases.run(client)
        return client
    }

    /// A repository on its own client, migrated; every repository of this database seals with one key.
    func repository() async throws -> PostgresCheckinRepository {
        let repository = PostgresCheckinRepository(client: client(), secrets: secrets)
        TestDatabases.made?.note("migrating \(configuration.database ?? "?") on a new client")
        try await repository.migrate()
        TestDatabases.made?.note("migrated")
        return repository
    }
}
