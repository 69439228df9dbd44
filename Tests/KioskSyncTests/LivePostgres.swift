import PostgresTestSupport
import TestSupport

/// A fresh database on the tests' PostgreSQL (scripts/postgres.sh), one per test, for a live
/// `checkin-server --postgres`: a copy of the migrated template (the server binds its secrets key at start).
/// A suite marked `.dropsTestDatabases` drops it when each test ends.
enum LivePostgres {
    typealias NoServer = TestPostgres.NoServer

    static func url() throws -> String { try TestPostgres.url() }

    /// Makes a migrated database and returns its URL.
    static func makeDatabase() async throws -> String { try await TestDatabases.make(migrated: true).url }
}
