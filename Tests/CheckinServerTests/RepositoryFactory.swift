import CheckinCore
import CheckinSQLite
import CheckinServer
import Foundation
import TestSupport
import Testing

@testable import CheckinAdmin

/// Makes an empty repository. The repository and route tests take one as their argument, so the same test
/// bodies run on every implementation: SQLite in memory and on a file, and PostgreSQL (a fresh database of
/// the server that scripts/postgres.sh starts).
struct RepositoryFactory: Sendable, CustomTestStringConvertible {
    let name: String
    let make: @Sendable () async throws -> any CheckinRepository

    var testDescription: String { name }

    static let sqliteInMemory = RepositoryFactory(name: "SQLite in memory") {
        try SQLiteCheckinRepository.inMemory(secrets: SecretsKey.random())
    }
    static let sqliteFile = RepositoryFactory(name: "SQLite file (DatabasePool)") {
        try sqlite(path: temporaryFolder() + "/checkin.db")
    }
    static let postgres = RepositoryFactory(name: "PostgreSQL") {
        try await PostgresTestDatabase.migrated().repository()
    }

    static let all: [RepositoryFactory] = [sqliteInMemory, sqliteFile, postgres]

    /// The repository on the file at `path`, with the secrets key `checkin-server` uses for it by default
    /// (`checkin-secrets.key` in its folder, made if missing), so the binary can open it too.
    static func sqlite(path: String) throws -> SQLiteCheckinRepository {
        try SQLiteCheckinRepository(path: path, secrets: secretsKey(besideDatabase: path))
    }

    static func secretsKey(besideDatabase path: String) throws -> SecretsKey {
        let folder = (path as NSString).deletingLastPathComponent
        return try SecretsKeySource.file(folder + "/" + SecretsKeySource.defaultFileName).load().key
    }

    static func temporaryFolder() -> String {
        TestFolders.make("checkin-test")
    }
}
