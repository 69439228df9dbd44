import DedicatedThreads
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The kiosks' only way to the server in the chaos test: a TCP proxy on 127.0.0.1 (an ephemeral port) in front of
/// one or more `serve` processes, whose faults change while it runs. Each new connection goes to the next server
/// that accepts it; while the uplink is down (`outage`) every open connection is cut and new ones are closed as
/// they come; otherwise a share of the connections (`cutShare`) is cut after a random number of bytes in one
/// direction (mid-handshake, mid-request or mid-answer). The draws come from a generator seeded with the run's seed.
/// Blocking sockets, a thread per direction of each connection, all close-on-exec (kiosks and servers started
/// meanwhile must not hold them).
final class ChaosProxy: @unchecked Sendable {
    struct Counts: Sendable, CustomStringConvertible {
        var connections = 0
        /// Connections closed as they came, the uplink down or no server up.
        var refused = 0
        /// Connections cut part-way (by the share, or by an outage).
        var cut = 0

        var description: String { "\(connections) connections, \(cut) cut, \(refused) refused" }
    }

    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var servers: [Int] = []
    private var nextServer = 0
    private var down = false
    private var share = 0.0
    private var generator: SplitMix64
    private var live: Set<Int32> = []
    private var counted = Counts()
    private var stopped = false
    private let acceptLoopDone = DispatchSemaphore(value: 0)

    init(seed: UInt64) throws {
        generator = SplitMix64(seed: seed)
        (listener, port) = try LoopbackTCP.listen()
        DedicatedThread.start(named: "chaos-proxy-accept") { [self] in acceptLoop() }
    }

    var url: String { "https://127.0.0.1:\(port)" }
    var counts: Counts { lock.withLock { counted } }

    /// The ports of the servers behind the proxy (a restarted `serve` listens on a new one).
    func setServers(_ ports: [Int]) { lock.withLock { servers = ports } }

    /// The uplink down (every open connection cut, new ones closed) or back.
    func setOutage(_ isDown: Bool) {
        let cut: Set<Int32> = lock.withLock {
            down = isDown
            guard isDown else { return [] }
            counted.cut += live.count / 2
            return live
        }
        for fd in cut { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    /// The share of new connections cut part-way, 0 to 1.
    func setCutShare(_ value: Double) { lock.withLock { share = value } }

    /// Stops accepting and cuts every open connection.
    func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        acceptLoopDone.wait()
        close(listener)
        lock.withLock { for fd in live { shutdown(fd, Int32(SHUT_RDWR)) } }
    }

    deinit { stop() }

    /// What happens to one connection: where it goes, and where it is cut (bytes forwarded client to server, or
    /// server to client, before the cut).
    private struct Plan {
        var servers: [Int]
        var cutFromClient: Int?
        var cutFromServer: Int?
    }

    private func acceptLoop() {
        defer { acceptLoopDone.signal() }
        while true {
            // accept4(SOCK_CLOEXEC) is not in Glibc's Swift module (it needs _GNU_SOURCE): fcntl just after.
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let plan: Plan? = lock.withLock {
                counted.connections += 1
                guard !down, !stopped, !servers.isEmpty else {
                    counted.refused += 1
                    return nil
                }
                var plan = Plan(servers: [])
                for i in 0..<servers.count { plan.servers.append(servers[(nextServer + i) % servers.count]) }
                nextServer += 1
                if Double.random(in: 0..<1, using: &generator) < share {
                    // Handshakes are about 2 kB each way; requests and answers from 100 bytes to tens of kB, and a
                    // kiosk keeps its connection for round after round: a cut may come in any of them.
                    if Bool.random(using: &generator) {
                        plan.cutFromClient = Int.random(in: 0..<20_000, using: &generator)
                    } else {
                        plan.cutFromServer = Int.random(in: 0..<40_000, using: &generator)
                    }
                }
                return plan
            }
            guard let plan, let server = plan.servers.lazy.compactMap(LoopbackTCP.connect(port:)).first else {
                if plan != nil { lock.withLock { counted.refused += 1 } }
                close(client)
                continue
            }
            var yes: Int32 = 1
            for fd in [client, server] {
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            }
            let admitted = lock.withLock {
                guard !down, !stopped else { return false }
                live.formUnion([client, server])
                return true
            }
            guard admitted else {
                close(client)
                close(server)
                continue
            }
            let connection = Connection(client: client, server: server, proxy: self)
            DedicatedThread.start(named: "chaos-proxy-up") {
                connection.pump(from: client, to: server, budget: plan.cutFromClient)
            }
            DedicatedThread.start(named: "chaos-proxy-down") {
                connection.pump(from: server, to: client, budget: plan.cutFromServer)
            }
        }
    }

    fileprivate func countCut() { lock.withLock { counted.cut += 1 } }

    fileprivate func closed(_ fds: [Int32]) {
        lock.withLock { live.subtract(fds) }
        for fd in fds { close(fd) }
    }
}

/// One proxied connection: two pumps; either side closing, or a cut, ends it both ways; the second pump to finish
/// closes the sockets.
private final class Connection: @unchecked Sendable {
    let client: Int32
    let server: Int32
    let proxy: ChaosProxy
    private let lock = NSLock()
    private var pumpsDone = 0

    init(client: Int32, server: Int32, proxy: ChaosProxy) {
        self.client = client
        self.server = server
        self.proxy = proxy
    }

    /// Forwards `from` to `to` until either closes, or until `budget` bytes have gone (then cuts the connection).
    func pump(from: Int32, to: Int32, budget: Int?) {
        var remaining = budget
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        reading: while true {
            let n = recv(from, &buffer, buffer.count, 0)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            var count = n
            var cut = false
            if let left = remaining {
                if n >= left {
                    count = left
                    cut = true
                } else {
                    remaining = left - n
                }
            }
            guard LoopbackTCP.send(buffer[0..<count], to: to) else { break }
            if cut {
                proxy.countCut()
                break reading
            }
        }
        shutdown(client, Int32(SHUT_RDWR))
        shutdown(server, Int32(SHUT_RDWR))
        let last = lock.withLock {
            pumpsDone += 1
            return pumpsDone == 2
        }
        if last { proxy.closed([client, server]) }
    }
}
