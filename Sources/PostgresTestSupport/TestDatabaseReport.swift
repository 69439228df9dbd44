import Foundation
import PostgresNIO
import TestSupport

extension TestDatabases {
    /// What the tests' PostgreSQL was doing for a test that did not finish in time: the test's journal, every
    /// backend that is not idle (or is on one of the test's databases) with what it waits for, and the server
    /// log's lines that name one of the test's databases. For the failure's message: a PostgresClient that
    /// cannot go on waits without saying why.
    public static func report(_ registry: TestDatabaseRegistry?) async -> String {
        guard let registry else { return "(no PostgreSQL journal: the test is not marked .dropsTestDatabases)" }
        let databases = registry.databases
        let journal = registry.journal
        if journal.isEmpty && databases.isEmpty { return "(it had done nothing on PostgreSQL)" }
        var lines = ["the test's steps on PostgreSQL:", journal]
        let activity = try? await resultWithin(.seconds(20)) { try await backends(of: databases) }
        lines.append("backends not idle, or on the test's databases (pg_stat_activity):")
        lines.append(activity.map { $0.isEmpty ? "  none" : $0 } ?? "  (the query did not answer within 20 s)")
        lines.append("the server log's lines naming the test's databases (.build/pg/server.log):")
        lines.append(serverLog(naming: databases))
        return lines.joined(separator: "\n")
    }

    private static func backends(of databases: [String]) async throws -> String {
        let rows = try await admin.get().query(
            """
            SELECT coalesce(datname, '-'), pid, coalesce(state, '-'), coalesce(wait_event_type, '-'),
                   coalesce(wait_event, '-'), coalesce(extract(epoch FROM now() - query_start)::float8, 0),
                   coalesce(left(query, 100), '')
            FROM pg_stat_activity
            WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'
              AND (state <> 'idle' OR datname = ANY(\(databases)))
            ORDER BY query_start
            """)
        var lines: [String] = []
        for try await (database, pid, state, waitType, wait, seconds, query) in rows.decode(
            (String, Int32, String, String, String, Double, String).self)
        {
            lines.append(
                "  \(database) pid \(pid) \(state) waiting \(waitType)/\(wait) for "
                    + String(format: "%.1f", seconds) + " s: \(query)")
        }
        return lines.joined(separator: "\n")
    }

    private static func serverLog(naming databases: [String]) -> String {
        let path = ChildProcess.packageRoot + "/.build/pg/server.log"
        guard !databases.isEmpty, let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            return "  (none: no database made, or no log at \(path))"
        }
        let named = text.split(separator: "\n").filter { line in databases.contains { line.contains($0) } }
        return named.isEmpty ? "  none" : named.suffix(30).map { "  " + $0 }.joined(separator: "\n")
    }
}
