import CheckinCore
import CheckinSQLite
import CheckinServer
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization
import TestSupport
import Testing

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
        let made = try ChildProcess.shell(
            """
            set -e
            printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\n' > san.ext
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key -out ca.pem -days 1 -subj /CN=test-ca 2>/dev/null
            openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key -out server.csr -subj /CN=localhost 2>/dev/null
            openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 1 -extfile san.ext 2>/dev/null
            """, in: folder)
        try #require(made.status == 0, "openssl: \(made.out)")
        repository = try SQLiteCheckinRepository(path: folder + "/checkin.db")
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
        task = Task { try await group.run() }
        var iterator = listening.stream.makeAsyncIterator()
        guard let port = await iterator.next() else { throw ChromiumError(.launch, "the server did not start") }
        self.port = port
    }

    func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}
