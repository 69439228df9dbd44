import DedicatedThreads
import Foundation
import TestSupport
import Testing

@testable import CheckinServerCommands

/// The package's executables run as real processes (`kiosk`, `kioskctl`, and a `checkin-server serve` over HTTPS
/// with a CA made on the spot, as Tests/CheckinServerTests/ServeCommandTests does); the server's admin commands
/// run inside this process.
enum LiveProcesses {
    static let packageRoot = ChildProcess.packageRoot

    static var toolsPresent: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")
    }

    static func temporaryFolder() -> String {
        TestFolders.make("kiosk-sync-test")
    }

    /// Runs an executable of the package; returns its exit status, standard output and standard error.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], in folder: String) async throws -> (
        status: Int32, out: String, err: String
    ) {
        try await ChildProcess.run(executable, arguments, in: folder)
    }

    /// Runs a `checkin-server` admin command on the database of the server in `folder` (its `checkin.db`, or the
    /// PostgreSQL database of `--postgres` with the secrets key in `folder`, where `serve` keeps them) and returns
    /// its standard output, trimmed; fails the test if it fails. Inside this process, through the binary's own
    /// command (`CheckinServerCommand.run`: its parsing, checks and errors), without starting one; the binary
    /// itself is run by `serve` here and by the command-line tests of CheckinServerTests.
    static func admin(_ arguments: [String], in folder: String) async throws -> String {
        let store =
            arguments.contains("--postgres")
            ? ["--secrets-key-file", folder + "/checkin-secrets.key"] : ["--database", folder + "/checkin.db"]
        let r = await CheckinServerCommand.run(arguments + store)
        try #require(r.status == 0, "checkin-server \(arguments): \(r.err)")
        return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func shell(_ script: String, in folder: String) async throws -> (status: Int32, out: String) {
        try await ChildProcess.shell(script, in: folder)
    }

    /// A CA and a server certificate for localhost and 127.0.0.1 in `folder` (ca.pem, server.pem, server.key).
    static func makeCertificates(in folder: String) async throws { try await TestCertificates.make(in: folder) }

    /// Threads of their own for live tests that wait for child processes (kioskctl, admin commands): they
    /// block these, not the 2-thread cooperative pool that the rest of the suite's tasks resume on.
    static let waiting = ThreadExecutor(threads: 4, name: "live-tests")
}

/// `checkin-server serve` over HTTPS on a loopback port, with its SQLite database in `folder`, or on the
/// PostgreSQL database at `postgres`.
final class LiveServer {
    let folder: String
    /// The port: chosen by the system at the first start (port 0), then kept for restarts, so kiosks that
    /// know the URL find the server again.
    private(set) var port: Int
    let postgres: String?
    /// More `serve` options (the SMTP relay, the pass folder...).
    var serveArguments: [String] = []
    /// More environment (fault injection).
    var environment: [String: String] = [:]
    private(set) var process: Process?

    /// `port` nil: the system chooses one at the first start (`url` is known after `start()`).
    init(folder: String, port: Int? = nil, postgres: String? = nil) {
        self.folder = folder
        self.port = port ?? 0
        self.postgres = postgres
    }

    var url: String { "https://localhost:\(port)" }

    /// The address `serve` links its passes to without --public-url: its host (127.0.0.1) and the port it listens on.
    var ownAddress: String { "https://127.0.0.1:\(port)" }

    /// The database options of every `checkin-server` command.
    var databaseArguments: [String] { postgres.map { ["--postgres", $0] } ?? [] }

    /// Runs an admin command on the server's database; returns its standard output, trimmed.
    func admin(_ arguments: [String]) async throws -> String {
        try await LiveProcesses.admin(arguments + databaseArguments, in: folder)
    }

    func start() async throws {
        let portFile = folder + "/port-\(UUID().uuidString.prefix(8))"
        let server = try ChildProcess.start(
            "checkin-server",
            [
                "serve", "--port", "\(port)", "--port-file", portFile, "--tls-certificate", "server.pem", "--tls-key",
                "server.key",
            ] + databaseArguments + serveArguments, in: folder, environment: environment)
        process = server
        // The port the server listens on (the system's choice for port 0), from the file it writes then.
        for _ in 0..<600 {  // up to 60 s on a loaded machine
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8),
                let listening = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                port = listening
                try? FileManager.default.removeItem(atPath: portFile)
                break
            }
            if !server.isRunning { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        for _ in 0..<150 {  // up to 15 s for the server to listen
            let r = try await LiveProcesses.shell(
                "curl -s -o /dev/null --cacert ca.pem \(url)/v1/events/1", in: folder)
            if r.status == 0 { return }
            // A server made to crash (fault injection) may be gone before it answers.
            if !server.isRunning { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("checkin-server did not listen on port \(port)")
    }

    /// SIGKILL: no shutdown, no last commit.
    func kill() async {
        guard let process else { return }
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        await process.waitUntilExit()
        self.process = nil
    }

    /// Waits up to `seconds` for the process to end by itself (a fault injection's SIGKILL); true if it did.
    func waitForExit(seconds: Double) async throws -> Bool {
        guard let process else { return true }
        for _ in 0..<Int(seconds * 20) {
            if !process.isRunning {
                await process.waitUntilExit()
                self.process = nil
                return true
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// SIGTERM, and waits for the graceful shutdown (before a restart on the same port).
    func stop() async {
        guard let process else { return }
        process.terminate()
        await process.waitUntilExit()
        self.process = nil
    }

    /// SIGTERM without waiting for the shutdown: for a test's `defer`, which cannot await (waiting there would
    /// hold a thread of the cooperative pool for as long as the server takes to stop).
    func stopWithoutWaiting() {
        process?.terminateWithoutWaiting()
        process = nil
    }

    deinit { stopWithoutWaiting() }
}
