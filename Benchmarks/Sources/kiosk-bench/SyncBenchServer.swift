import CheckinAdmin
import CheckinCore
import CheckinPostgres
import CheckinSQLite
import CheckinServer
import Foundation
import KioskCore
import KioskSync
import Logging
import PostgresNIO
import ServiceLifecycle
import WireAPI

#if canImport(Glibc)
    import Glibc
#endif

/// A check-in server for the sync benchmark: its repository (SQLite file or PostgreSQL database), the admin
/// operations on it, and the URL of each HTTP server in front of it (plain HTTP on loopback).
final class BenchServer: Sendable {
    let label: String
    let repository: any CheckinRepository
    let admin: CheckinAdmin
    let urls: [String]
    private let stopAll: @Sendable () async -> Void

    private init(
        label: String, repository: any CheckinRepository, urls: [String], stop: @escaping @Sendable () async -> Void
    ) {
        self.label = label
        self.repository = repository
        admin = CheckinAdmin(repository: repository)
        self.urls = urls
        stopAll = stop
    }

    func stop() async { await stopAll() }

    /// One secrets key for every server of the benchmark (in-process ones and `checkin-server` processes).
    static let secretsKeyFile = NSTemporaryDirectory() + "kiosk-bench-secrets-" + UUID().uuidString + ".key"
    static func secrets() throws -> SecretsKey { try SecretsKeySource.file(secretsKeyFile).load().key }

    static let logger: Logger = {
        var logger = Logger(label: "kiosk-bench")
        logger.logLevel = .error
        return logger
    }()

    /// `buildApplication` on SQLite (a file in `folder`), in this process.
    static func sqlite(folder: String) async throws -> BenchServer {
        let repository = try SQLiteCheckinRepository(path: folder + "/checkin.db", secrets: secrets())
        let (url, stop) = try await serveInProcess(repository)
        return BenchServer(label: "SQLite, 1 process", repository: repository, urls: [url], stop: stop)
    }

    /// `buildApplication` on PostgreSQL, in this process; `applications` of them, each with its own client
    /// (as separate server processes would have).
    static func postgres(url databaseURL: String, applications: Int, label: String) async throws -> BenchServer {
        var clients: [Task<Void, Never>] = []
        var stops: [@Sendable () async -> Void] = []
        var urls: [String] = []
        var first: PostgresCheckinRepository?
        for _ in 0..<applications {
            let client = PostgresClient(
                configuration: PostgresClient.Configuration(url: databaseURL)!, backgroundLogger: logger)
            clients.append(Task { await client.run() })
            let repository = PostgresCheckinRepository(client: client, secrets: try secrets(), logger: logger)
            try await repository.migrate()
            let (url, stop) = try await serveInProcess(repository)
            urls.append(url)
            stops.append(stop)
            if first == nil { first = repository }
        }
        let running = clients
        let stopping = stops
        return BenchServer(label: label, repository: first!, urls: urls) {
            for stop in stopping { await stop() }
            for client in running { client.cancel() }
        }
    }

    /// `processes` real `checkin-server serve --postgres` processes (`ProductBinary`) on
    /// one database; the benchmark's own client does the admin work beside them. Nil when the executable is
    /// not there.
    static func postgresProcesses(url databaseURL: String, processes: Int) async throws -> BenchServer? {
        let executable = URL(fileURLWithPath: ProductBinary.path("checkin-server"))
        guard FileManager.default.isExecutableFile(atPath: executable.path) else { return nil }
        let client = PostgresClient(
            configuration: PostgresClient.Configuration(url: databaseURL)!, backgroundLogger: logger)
        let clientTask = Task { await client.run() }
        let repository = PostgresCheckinRepository(client: client, secrets: try secrets(), logger: logger)
        try await repository.migrate()
        var children: [Process] = []
        var urls: [String] = []
        for _ in 0..<processes {
            let port = try freePort()
            let process = Process()
            process.executableURL = executable
            process.arguments = [
                "serve", "--postgres", databaseURL, "--host", "127.0.0.1", "--port", "\(port)", "--secrets-key-file",
                secretsKeyFile,
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            children.append(process)
            urls.append("http://127.0.0.1:\(port)")
        }
        for url in urls { try await waitUntilListening(url) }
        let running = children
        return BenchServer(
            label: "PostgreSQL, \(processes) checkin-server processes", repository: repository, urls: urls
        ) {
            for process in running {
                process.terminate()
                process.waitUntilExit()
            }
            clientTask.cancel()
        }
    }

    /// Runs the application in a service group on a free loopback port; returns its URL and how to stop it.
    static func serveInProcess(_ repository: any CheckinRepository) async throws -> (
        String, @Sendable () async -> Void
    ) {
        let port = try freePort()
        let app = try buildApplication(
            configuration: ServerConfiguration(host: "127.0.0.1", port: port), repository: repository, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task { try await group.run() }
        let url = "http://127.0.0.1:\(port)"
        try await waitUntilListening(url)
        return (
            url,
            {
                await group.triggerGracefulShutdown()
                _ = try? await task.value
            }
        )
    }

    /// Asks for a roster without a token until the server answers (401), for up to 30 s.
    static func waitUntilListening(_ url: String) async throws {
        let client = try CheckinClient(serverURL: url, token: nil, caFile: nil, timeout: .seconds(2))
        defer { Task { await client.shutdown() } }
        for _ in 0..<300 {
            do {
                _ = try await client.rosterPage(event: 1, page: nil, changesSince: nil)
                return
            } catch {
                if error.kind != .unreachable { return }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw BenchFailure("the check-in server at \(url) did not answer within 30 s")
    }

    /// A loopback port no one listens on now (bound to port 0, then closed). The corresponding C functions are
    /// `socket`, `bind` and `getsockname`.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchFailure("socket() failed: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw BenchFailure("bind() to a loopback port failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A benchmark that cannot go on, said plainly.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
