import CheckinPostgres
import Foundation
import PostgresNIO
import TestSupport

/// A fresh database on the tests' PostgreSQL (scripts/postgres.sh), one per test, for a live
/// `checkin-server --postgres`.
enum LivePostgres {
    typealias NoServer = TestPostgres.NoServer

    static func url() throws -> String { try TestPostgres.url() }

    /// Makes an empty database and returns its URL.
    static func makeDatabase() async throws -> String {
        let url = try url()
        guard let configuration = PostgresClient.Configuration(url: url), var components = URLComponents(string: url)
        else { throw NoServer() }
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let client = PostgresClient(configuration: configuration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            // CREATE DATABASE takes no parameters; the name is made here, of [a-z0-9_] only.
            try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        }
        components.path = "/" + name
        return components.string!
    }
}
