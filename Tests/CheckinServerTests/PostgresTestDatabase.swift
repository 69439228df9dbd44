import CheckinCore
import CheckinPostgres
import CheckinServer
import Foundation
import Logging
import PostgresNIO
import TestSupport
import Testing

/// A fresh, empty database on the test server (scripts/postgres.sh), one per test, so tests never see each
/// other's rows. Its clients run in tasks for the rest of the test process.
struct PostgresTestDatabase: Sendable {
    let configuration: PostgresClient.Configuration
    /// The database's URL, for `checkin-server --postgres`.
    let url: String
    /// The key its secrets are sealed with.
    let secrets: SecretsKey = try! SecretsKey.random()

    typealias NoServer = TestPostgres.NoServer

    static func url() throws -> String { try TestPostgres.url() }

    /// The client on the URL's own database, which makes the per-test databases.
    static let admin: Result<PostgresClient, NoServer> = {
        guard let url = try? url(), var configuration = PostgresClient.Configuration(url: url) else {
            return .failure(NoServer())
        }
        configuration.options.maximumConnections = 4
        let client = PostgresClient(configuration: configuration)
        Task { await client.run() }
        return .success(client)
    }()

    static func make() async throws -> PostgresTestDatabase {
        let admin = try admin.get()
        var configuration = PostgresClient.Configuration(url: try url())!
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        // CREATE DATABASE takes no parameters; the name is made here, of [a-z0-9_] only.
        try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        configuration.database = name
        configuration.options.maximumConnections = 12
        var components = URLComponents(string: try url())!
        components.path = "/" + name
        return PostgresTestDatabase(configuration: configuration, url: components.string!)
    }

    /// A running client on this database (one "server process").
    func client() -> PostgresClient {
        let client = PostgresClient(configuration: configuration)
        Task { await client.run() }
        return client
    }

    /// A repository on its own client, migrated; every repository of this database seals with one key.
    func repository() async throws -> PostgresCheckinRepository {
        let repository = PostgresCheckinRepository(client: client(), secrets: secrets)
        try await repository.migrate()
        return repository
    }
}
