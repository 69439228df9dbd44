import CheckinCore
import CheckinSQLite
import CheckinServer
import DedicatedThreads
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization
import TestSupport
import Testing

@testable import CheckinAdmin

/// `buildApplication` over HTTPS (a certificate made on the spot with openssl) on a loopback port the system
/// chose, in this process, on SQLite, with a clock the test moves: what the browser tests drive.
final class BrowserServer: Sendable {
    let repository: SQLiteCheckinRepository
    let clock: ManualServerClock
    let admin: CheckinAdmin
    let port: Int
    private let task: Task<Void, any Error>
    private let group: ServiceGroup

    var url: String { "https://localhost:\(port)" }

    static let start = Date(timeIntervalSince1970: 1_796_140_800)  // 2026-12-01 16:00 UTC

    init() async throws {
        let folder = RepositoryFactory.temporaryFolder()
        try await TestCertificates.make(in: folder)
        repository = try RepositoryFactory.sqlite(path: folder + "/checkin.db")
        clock = ManualServerClock(Self.start)
        admin = CheckinAdmin(repository: repository, clock: clock)
        var logger = Logger(label: "browser-test")
        logger.logLevel = .error
        let listening = AsyncStream<Int>.makeStream()
        let app = try buildApplication(
            configuration: ServerConfiguration(
                host: "127.0.0.1", port: 0, tlsCertificatePath: folder + "/server.pem",
                tlsKeyPath: folder + "/server.key"),
            repository: repository, clock: clock, logger: logger,
            onListening: { port in listening.continuation.yield(port) })
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        self.group = group
        // The server on threads of its own, not the cooperative pool (see ThreadExecutor).
        task = Task(executorPreference: ThreadExecutor.testServers) { try await group.run() }
        var iterator = listening.stream.makeAsyncIterator()
        self.port = try #require(await iterator.next(), "the server stopped before it listened")
    }

    func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}
