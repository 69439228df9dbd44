import CheckinServer
import DedicatedThreads
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import ServiceLifecycle
import TestSupport
import Testing

/// Slowloris over real sockets: connections that send half a header (a byte now and then) are closed at the
/// header timeout, idle ones at the idle timeout, and no more than the cap are served at once. Short configured
/// timeouts, no sleeps but the clients' own pacing.
@Suite struct ConnectionLimitTests {
    /// Threads of this suite's own for its servers and clients. Hummingbird accepts a connection in a task, and
    /// the header timeout starts at its first byte read: on the threads all live servers of a whole-suite run share
    /// (`testServers`, where other suites' servers and doors do blocking SQLite work), the accept loop waited long
    /// enough that connections still in the kernel's queue outlived the test's 8 s (a whole-suite run, 2 Dec: of 50
    /// sent, some never closed; the test took 56 s). What is measured here is the server's timeouts, not that pool.
    static let servers = ThreadExecutor(threads: 2, name: "connection-limit-tests")

    static func limits(header: Int64, idle: Int64, connections: Int = 1_000) -> EdgeLimits {
        var limits = EdgeLimits()
        limits.requestHeaderTimeout = .milliseconds(header)
        limits.idleTimeout = .milliseconds(idle)
        limits.maximumConnections = connections
        return limits
    }

    @Test func halfSentHeadersAreCutOffAtTheHeaderTimeout() async throws {
        let h = try await Harness(.sqliteInMemory)
        // The idle timeout far off: only the header timeout can close these.
        let app = try h.app(limits: Self.limits(header: 1_000, idle: 60_000))
        try await withTaskExecutorPreference(Self.servers) {
            try await app.test(.live) { client in
                let port = try #require(client.port)
                let started = Date()
                let closed = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for _ in 0..<50 {
                        group.addTask {
                            try await DedicatedThread.run(named: "raw-connection") {
                                let connection = try RawConnection(port: port)
                                connection.send("GET /sign-in HTTP/1.1\r\nHost: x\r\n")
                                // A header line a byte at a time, every 100 ms, for at most 8 s.
                                for _ in 0..<80 {
                                    if !connection.send("X") { return true }
                                    if connection.readUntilClosed(timeout: 0.1).closed { return true }
                                }
                                return false
                            }
                        }
                    }
                    return try await group.reduce(into: [Bool]()) { $0.append($1) }
                }
                #expect(closed.allSatisfy { $0 }, "\(closed.filter { !$0 }.count) of 50 still open after 8 s")
                #expect(Date().timeIntervalSince(started) < 6)
                // The server still serves a whole request at once.
                try await client.execute(uri: "/sign-in", method: .get) { #expect($0.status == .ok) }
            }
        }
    }

    @Test func silentConnectionsAreClosedAtTheIdleTimeout() async throws {
        let h = try await Harness(.sqliteInMemory)
        let app = try h.app(limits: Self.limits(header: 60_000, idle: 1_000))
        try await withTaskExecutorPreference(Self.servers) {
            try await app.test(.live) { client in
                let port = try #require(client.port)
                let answer = try await DedicatedThread.run(named: "raw-connection") {
                    let connection = try RawConnection(port: port)
                    // One whole request, then silence on the kept-alive connection.
                    connection.send("GET /sign-in HTTP/1.1\r\nHost: x\r\n\r\n")
                    return connection.readUntilClosed(timeout: 8)
                }
                #expect(answer.text.hasPrefix("HTTP/1.1 200"))
                #expect(answer.closed, "an idle connection stayed open 8 s")
            }
        }
    }

    @Test func connectionsBeyondTheCapWaitUntilOneCloses() async throws {
        let h = try await Harness(.sqliteInMemory)
        // Run as `serve` does (HummingbirdTesting's live test drops the connection cap from the configuration).
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let app = try buildApplication(
            configuration: ServerConfiguration(
                host: "127.0.0.1", port: 0, limits: Self.limits(header: 1_500, idle: 1_500, connections: 3)),
            repository: h.repository, clock: h.clock, onListening: { listening.yield($0) })
        let group = ServiceGroup(services: [app], logger: Logger(label: "connection-cap-test"))
        try await withTaskExecutorPreference(Self.servers) {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                var iterator = ports.makeAsyncIterator()
                let port = try #require(await iterator.next())
                let (early, late, heldClosed) = try await DedicatedThread.run(named: "raw-connection") {
                    let held = try (0..<3).map { _ in try RawConnection(port: port) }
                    for connection in held { connection.send("GET /sign-in HTTP/1.1\r\nHost: x\r\n") }
                    // Let the server accept the three before the fourth arrives.
                    _ = held[0].readUntilClosed(timeout: 0.3)
                    let fourth = try RawConnection(port: port)
                    fourth.send("GET /sign-in HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    // Not served while three connections are open; served once the header timeout closed them.
                    let early = fourth.read(until: "HTTP/1.1", timeout: 0.8)
                    // Each held one is closed by its own header timeout, counted from its own first byte read: under
                    // load the last may close long after the first freed a slot (a 1 s window failed a run at load
                    // 10, an 8 s one a whole-suite run at load 13, where this test took 47 s against 2 s alone). The
                    // test asserts the order (none served beside three, served after, all three closed), not a
                    // speed: these are bounds for a failure only, which a passing run never waits out.
                    let late = fourth.read(until: "HTTP/1.1 200", timeout: 60)
                    return (early, late, held.allSatisfy { $0.readUntilClosed(timeout: 60).closed })
                }
                #expect(early.isEmpty, "a fourth connection was served beside three: \(early.prefix(40))")
                #expect(late.contains("HTTP/1.1 200"))
                #expect(heldClosed)
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        }
    }

    /// Two clients that send a body a byte every 200 ms to a server of two connections: before, each byte
    /// restarted the idle timer and /healthz waited for as long as they liked; now each is cut off when its body
    /// brings less than 16 KiB within the pace timeout, and /healthz is answered.
    @Test func slowBodiesAreCutOffAndTheServerAnswersAgain() async throws {
        let h = try await Harness(.sqliteInMemory)
        var limits = Self.limits(header: 60_000, idle: 60_000, connections: 2)
        limits.bodyProgressTimeout = .milliseconds(1_000)
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let app = try buildApplication(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0, limits: limits),
            repository: h.repository, clock: h.clock, onListening: { listening.yield($0) })
        let group = ServiceGroup(services: [app], logger: Logger(label: "slow-body-test"))
        try await withTaskExecutorPreference(Self.servers) {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                var iterator = ports.makeAsyncIterator()
                let port = try #require(await iterator.next())
                let (cut, health) = try await DedicatedThread.run(named: "raw-connection") {
                    let slow = try (0..<2).map { _ in try RawConnection(port: port) }
                    for connection in slow {
                        connection.send(
                            "POST /v1/enrolments/redeem HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                + "Content-Length: 1000\r\n\r\n{")
                    }
                    let healthz = try RawConnection(port: port)
                    healthz.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    // A byte each 200 ms from both, for at most 60 s (a bound for a loaded machine, not a measure).
                    var cut = [false, false]
                    for _ in 0..<300 where cut.contains(false) {
                        for (index, connection) in slow.enumerated() where !cut[index] {
                            if !connection.send("a") || connection.readUntilClosed(timeout: 0.1).closed {
                                cut[index] = true
                            }
                        }
                    }
                    return (cut, healthz.read(until: "HTTP/1.1 200", timeout: 60))
                }
                #expect(cut == [true, true], "a body a byte every 200 ms held its connection for 60 s")
                #expect(health.contains("HTTP/1.1 200"), "/healthz was not answered beside two slow bodies")
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        }
    }
}
