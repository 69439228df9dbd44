import CheckinPostgres
import Foundation
import PostgresNIO

/// A fresh database on the tests' PostgreSQL (scripts/postgres.sh), one per test, for a live
/// `checkin-server --postgres`.
enum LivePostgres {
    struct NoServer: Error, CustomStringConvertible {
        var description: String {
            "no PostgreSQL for the tests: run scripts/postgres.sh first (it starts one on 127.0.0.1 and writes "
                + "its URL to .build/pg/url), or set CHECKIN_TEST_POSTGRES_URL"
        }
    }

    /// The URL from CHECKIN_TEST_POSTGRES_URL, else from .build/pg/url in the package.
    static func url() throws -> String {
        if let url = ProcessInfo.processInfo.environment["CHECKIN_TEST_POSTGRES_URL"], !url.isEmpty { return url }
        let file = LiveProcesses.packageRoot + "/.build/pg/url"
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { throw NoServer() }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

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
