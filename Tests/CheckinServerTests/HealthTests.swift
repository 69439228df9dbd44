import CheckinCore
import CheckinPostgres
import CheckinSQLite
import CheckinServer
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import PostgresNIO
import PostgresTestSupport
import Testing

/// `GET /healthz` and `GET /readyz`, on every repository, and a schema behind or ahead of the server.
@Suite("Health and readiness", .dropsTestDatabases)
struct HealthTests {
    func get(_ path: String, _ h: Harness) async throws -> (HTTPResponse.Status, String) {
        try await h.app().test(.router) { client in
            try await client.execute(uri: path, method: .get) { response in
                (response.status, String(buffer: response.body))
            }
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func liveAndReadyWithoutAToken(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        #expect(try await get("/healthz", h) == (.ok, "ok\n"))
        #expect(try await get("/readyz", h) == (.ok, "ready\n"))
    }

    @Test("readyz: a SQLite database missing a step, or with a step this server does not know, is not ready")
    func sqliteSchemaNotCurrent() async throws {
        let path = RepositoryFactory.temporaryFolder() + "/checkin.db"
        let h = try await Harness(RepositoryFactory(name: "file") { try RepositoryFactory.sqlite(path: path) })
        let raw = try DatabaseQueue(path: path)
        let last = try await raw.read { db in
            try String.fetchOne(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier DESC LIMIT 1")
        }
        let step = try #require(last)
        try await raw.write { db in
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [step])
        }
        #expect(
            try await get("/readyz", h) == (.serviceUnavailable, "not ready: the database's schema is not migrated\n"))
        try await raw.write { db in
            try db.execute(
                sql: "INSERT INTO grdb_migrations (identifier) VALUES (?), ('9999 from a newer server')",
                arguments: [step])
        }
        #expect(
            try await get("/readyz", h) == (
                .serviceUnavailable, "not ready: the database was migrated by a newer server\n"
            ))
        #expect(try await get("/healthz", h) == (.ok, "ok\n"))
    }

    @Test("readyz: a PostgreSQL database missing a step is not ready")
    func postgresSchemaNotCurrent() async throws {
        let database = try await PostgresTestDatabase.make()
        let repository = try await database.repository()
        let h = try await Harness(RepositoryFactory(name: "PostgreSQL") { repository })
        #expect(try await get("/readyz", h) == (.ok, "ready\n"))
        let client = database.client()
        try await client.query(
            "DELETE FROM schema_migrations WHERE number = (SELECT max(number) FROM schema_migrations)",
            logger: Logger(label: "test"))
        #expect(
            try await get("/readyz", h) == (.serviceUnavailable, "not ready: the database's schema is not migrated\n"))
    }

    @Test("readyz: a PostgreSQL database never migrated is not migrated, not unanswering")
    func postgresNeverMigrated() async throws {
        let database = try await PostgresTestDatabase.make()
        let repository = PostgresCheckinRepository(client: database.client(), secrets: database.secrets)
        let h = try await Harness(RepositoryFactory(name: "PostgreSQL, empty") { repository })
        #expect(
            try await get("/readyz", h) == (.serviceUnavailable, "not ready: the database's schema is not migrated\n"))
        #expect(try await get("/healthz", h) == (.ok, "ok\n"))
    }
}
