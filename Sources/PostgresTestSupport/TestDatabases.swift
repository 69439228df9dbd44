import CheckinCore
import CheckinPostgres
import DedicatedThreads
import Foundation
import Logging
import PostgresNIO
import Synchronization
import TestSupport

/// The tests' databases on the tests' PostgreSQL (scripts/postgres.sh), one per test so that tests never see each
/// other's rows. A migrated one is a copy (`CREATE DATABASE … TEMPLATE`) of a template migrated once per schema;
/// an empty one is for the tests of migration itself. A test or suite marked `.dropsTestDatabases` drops the
/// databases it made when it ends.
///
/// All of it runs on threads of its own (`ThreadExecutor.testDatabases`), not on the cooperative pool: every
/// PostgreSQL test waits for the template, and a whole-suite run on 2 cores measured new tasks waiting up to 43 s
/// for that pool while hundreds of tests started at once. The template's migration, one round trip per
/// statement, each behind that queue, had not finished after 5 minutes, and a test failed on its deadline.
public enum TestDatabases {
    public typealias NoServer = TestPostgres.NoServer

    /// The databases and clients of the test running now (set by `.dropsTestDatabases`).
    @TaskLocal public static var made: TestDatabaseRegistry?

    /// A new database: a copy of this version's migrated schema, or empty. Returns its name and URL.
    public static func make(migrated: Bool) async throws -> (name: String, url: String) {
        try await withTaskExecutorPreference(ThreadExecutor.testDatabases) {
            try await makeDatabase(migrated: migrated)
        }
    }

    private static func makeDatabase(migrated: Bool) async throws -> (name: String, url: String) {
        let url = try TestPostgres.url()
        guard var components = URLComponents(string: url) else { throw NoServer() }
        let admin = try admin.get()
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        // CREATE DATABASE takes no parameters; the names are made here, of [a-z0-9_] only.
        if migrated {
            made?.note("waiting for the template")
            let template = try await templates.value()
            made?.note("CREATE DATABASE \(name) TEMPLATE \(template)")
            try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name) TEMPLATE \(template)"))
        } else {
            made?.note("CREATE DATABASE \(name)")
            try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        }
        made?.note("created \(name)")
        made?.add(database: name)
        components.path = "/" + name
        return (name, components.string!)
    }

    /// Runs `client` until the test ends (then its connections close before its database is dropped). Its run
    /// loop, which opens the connections its queries wait for, is on the tests' database threads: on the
    /// cooperative pool a worker's first query waited behind the suite's queue, and a shutdown that must wait for
    /// it took 57 s.
    public static func run(_ client: PostgresClient) {
        let task = Task(executorPreference: ThreadExecutor.testDatabases) { await client.run() }
        made?.add(client: task)
    }

    /// Drops a test's database, closing whatever is still connected to it.
    public static func drop(_ name: String) async throws {
        do {
            try await withTaskExecutorPreference(ThreadExecutor.testDatabases) {
                try await admin.get().query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"))
            }
        } catch let error as PSQLError {
            // PSQLError's own description hides the server's message.
            throw TestDatabaseError(
                "could not drop the test database \(name): "
                    + (error.serverInfo?[.message] ?? String(reflecting: error)))
        }
    }

    /// The client on the URL's own database, which makes, copies and drops the tests' databases.
    static let admin: Result<PostgresClient, NoServer> = {
        guard let url = try? TestPostgres.url(), var configuration = PostgresClient.Configuration(url: url) else {
            return .failure(NoServer())
        }
        // Every test's CREATE DATABASE and DROP DATABASE go through it, and a drop waits for a checkpoint: with 4,
        // drops waiting behind a slow checkpoint held every connection and new tests could not make their databases.
        configuration.options.maximumConnections = 16
        let client = PostgresClient(configuration: configuration)
        Task(executorPreference: ThreadExecutor.testDatabases) { await client.run() }
        return .success(client)
    }()

    /// The template's name, made by the first test that asks (in a task of its own, which does not inherit the
    /// asker's executor).
    private static let templates = AsyncOnce {
        try await withTaskExecutorPreference(ThreadExecutor.testDatabases) { try await makeTemplate() }
    }

    /// The template of this version's schema, made once per schema: under an advisory lock (test processes
    /// starting at once make it once), built under another name and renamed when complete (a process killed half
    /// way leaves no half-migrated template), and never connected to afterwards (a database being copied must
    /// have no connections).
    private static func makeTemplate() async throws -> String {
        let name = "tmpl_" + PostgresCheckinRepository.schemaFingerprint
        let building = name + "_building"
        let url = try TestPostgres.url()
        let lock: Int64 = 0x636b_7465_6d70_6c74
        try await admin.get().withConnection { connection in
            try await connection.query("SELECT pg_advisory_lock(\(lock))", logger: logger)
            do {
                let exists =
                    try await connection.query(
                        "SELECT 1 FROM pg_database WHERE datname = \(name)", logger: logger
                    ).collect().count > 0
                if !exists {
                    try await connection.query(
                        PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(building) WITH (FORCE)"), logger: logger)
                    try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(building)"), logger: logger)
                    guard var configuration = PostgresClient.Configuration(url: url) else { throw NoServer() }
                    configuration.database = building
                    let client = PostgresClient(configuration: configuration)
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask { await client.run() }
                        defer { group.cancelAll() }
                        // Every step, without binding a secrets key: each copy's first `migrate()` binds its own.
                        try await PostgresCheckinRepository(client: client, secrets: NoSecrets())
                            .migrate(through: PostgresCheckinRepository.latestSchemaStep)
                    }
                    // The client's connections are closing: PostgreSQL waits for them (up to 5 s) before renaming.
                    try await connection.query(
                        PostgresQuery(unsafeSQL: "ALTER DATABASE \(building) RENAME TO \(name)"), logger: logger)
                }
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(lock))", logger: logger)
                throw error
            }
            try await connection.query("SELECT pg_advisory_unlock(\(lock))", logger: logger)
        }
        return name
    }

    private static let logger = Logger(label: "test-databases")
}

/// What one test made: its databases, and the clients to stop before they are dropped; and a journal of its
/// steps on the tests' PostgreSQL, for the message of a test that did not finish in time.
public final class TestDatabaseRegistry: Sendable {
    private let state = Mutex<(databases: [String], clients: [Task<Void, Never>])>(([], []))
    private let steps = Mutex<[(at: ContinuousClock.Instant, step: String)]>([])
    private let start = ContinuousClock.now

    public init() {}

    func add(database name: String) { state.withLock { $0.databases.append(name) } }
    func add(client task: Task<Void, Never>) { state.withLock { $0.clients.append(task) } }

    /// Records a step (`TestDatabases.made?.note(…)`), with the time since the test began.
    public func note(_ step: String) { steps.withLock { $0.append((.now, step)) } }

    /// The databases made so far.
    public var databases: [String] { state.withLock { $0.databases } }

    /// The steps so far, one per line, each with its time since the test began.
    public var journal: String {
        steps.withLock { steps in
            steps.map { entry in
                let elapsed = entry.at - start
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                return "  +" + String(format: "%.1f", seconds) + " s " + entry.step
            }
            .joined(separator: "\n")
        }
    }

    /// Stops the clients, then drops the databases.
    public func dropAll() async throws {
        let (databases, clients) = state.withLock { state in
            defer { state = ([], []) }
            return state
        }
        for client in clients {
            client.cancel()
            // A client whose run does not end on cancellation must not hold the test: a whole-suite run hung at
            // the end of a test on all threads idle, with no connection left open. Its database is dropped with
            // FORCE below either way.
            let stopped = try? await resultWithin(.seconds(60)) { await client.value }
            if stopped == nil {
                FileHandle.standardError.write(
                    Data(
                        "a PostgreSQL client did not stop within 60 s of its cancellation; dropping its database\n".utf8
                    ))
            }
        }
        // Every database is dropped even if one cannot be; the first failure is thrown after.
        var failure: (any Error)?
        for name in databases {
            do { try await TestDatabases.drop(name) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }
}

/// Why the tests' PostgreSQL could not do what a test needed, with the server's own message.
public struct TestDatabaseError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}

/// The template's repository has no secrets to seal (its tables are empty) and binds no key.
private struct NoSecrets: SecretSealing {
    var keyID: String { "none: the tests' template" }
    func seal(_ secret: String, context: SecretContext) throws(SecretSealingError) -> String {
        throw .crypto("the template seals nothing")
    }
    func open(_ stored: String, context: SecretContext) throws(SecretSealingError) -> String {
        throw .crypto("the template seals nothing")
    }
}
