import CheckinCore
import CheckinSQLite
import Foundation
import Testing

/// Makes an empty repository. The repository and route tests take one as their argument, so the same test
/// bodies run on every implementation: SQLite in memory and on a file, and PostgreSQL (a fresh database of
/// the server that scripts/postgres.sh starts).
struct RepositoryFactory: Sendable, CustomTestStringConvertible {
    let name: String
    let make: @Sendable () async throws -> any CheckinRepository

    var testDescription: String { name }

    static let sqliteInMemory = RepositoryFactory(name: "SQLite in memory") { try SQLiteCheckinRepository.inMemory() }
    static let sqliteFile = RepositoryFactory(name: "SQLite file (DatabasePool)") {
        try SQLiteCheckinRepository(path: temporaryFolder() + "/checkin.db")
    }
    static let postgres = RepositoryFactory(name: "PostgreSQL") {
        try await PostgresTestDatabase.make().repository()
    }

    static let all: [RepositoryFactory] = [sqliteInMemory, sqliteFile, postgres]

    static func temporaryFolder() -> String {
        let path = NSTemporaryDirectory() + "checkin-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
