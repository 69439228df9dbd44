import DedicatedThreads
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The faults a `FaultProxy` injects. Each exchange's fault, and whether a connection is slow, are drawn from a
/// generator seeded with `seed` and the connection's number, so a run with the same kiosk traffic replays.
struct FaultPlan: Sendable {
    var seed: UInt64
    /// Probability that an exchange's request is not forwarded (the connection closes as it starts).
    var dropRequest = 0.0
    /// Probability that the request is forwarded whole and the connection closes as the response starts.
    var dropResponse = 0.0
    /// Probability that the connection closes partway through the request's head or body.
    var cutRequest = 0.0
    /// Probability that the connection closes partway through the response.
    var cutResponse = 0.0
    /// Probability that a connection is slow: each read waits up to `maximumDelay` before it is forwarded.
    var slowConnection = 0.0
    var maximumDelay: Duration = .milliseconds(100)
    /// Faults that must each fire at least once however the draws fall: while one has not fired, the next
    /// connection to reach its second exchange (the first upload after `kioskctl sync`'s heartbeat) takes it in
    /// place of a draw. A connection that ends before the fault fired (a sync killed, the other side gone)
    /// hands it on to the next one.
    var scripted: [ExchangeFault] = []
}

/// What a `FaultProxy` did, so tests can check that the faults really happened.
struct FaultCounts: Sendable, CustomStringConvertible {
    var connections = 0
    var exchanges = 0
    var requestsDropped = 0
    var responsesDropped = 0
    var requestsCut = 0
    var responsesCut = 0
    var delayedReads = 0
    /// Records the server sent after the handshake before any request. None from checkin-server: its TLS 1.3
    /// session tickets leave with its first response, after the request was handled. Tickets sent earlier
    /// could pass for a response if the request overtook them.
    var unpromptedServerRecords = 0

    var description: String {
        "\(connections) connections, \(exchanges) exchanges: \(requestsDropped) requests dropped, "
            + "\(responsesDropped) responses dropped, \(requestsCut) requests cut, \(responsesCut) responses cut, "
            + "\(delayedReads) reads delayed, \(unpromptedServerRecords) unprompted server records"
    }
}

/// A TCP proxy on 127.0.0.1 that forwards the bytes of each connection to `127.0.0.1:serverPort` untouched
/// (TLS passes through: the client still verifies the server's certificate) and injects the faults of its
/// plan, following the exchanges from the TLS record headers (`TLSExchangeTracker`). Blocking sockets, a
/// thread per direction of each connection.
final class FaultProxy: @unchecked Sendable {
    let port: Int
    let serverPort: Int
    let plan: FaultPlan
    private let listener: Int32
    private let lock = NSLock()
    private var counted = FaultCounts()
    private var live: [Int32] = []
    private var stopped = false
    private let acceptLoopDone = DispatchSemaphore(value: 0)

    init(serverPort: Int, plan: FaultPlan) throws {
        self.serverPort = serverPort
        self.plan = plan
        (listener, port) = try LoopbackTCP.listen()
        DedicatedThread.start(named: "fault-proxy-accept") { [self] in acceptLoop() }
    }

    var counts: FaultCounts { lock.withLock { counted } }
    var responsesDropped: Int { counts.responsesDropped }
    var requestsDropped: Int { counts.requestsDropped }

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

    private func acceptLoop() {
        defer { acceptLoopDone.signal() }
        var number: UInt64 = 0
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            number += 1
            guard let server = LoopbackTCP.connect(port: serverPort) else {
                close(client)
                continue
            }
            var yes: Int32 = 1
            for fd in [client, server] {
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            }
            let admitted = lock.withLock {
                guard !stopped else { return false }
                counted.connections += 1
                live += [client, server]
                return true
            }
            guard admitted else {
                close(client)
                close(server)
                return
            }
            let connection = ProxiedConnection(number: number, client: client, server: server, plan: plan, proxy: self)
            DedicatedThread.start(named: "fault-proxy-up") { connection.pump(fromClient: true) }
            DedicatedThread.start(named: "fault-proxy-down") { connection.pump(fromClient: false) }
        }
    }

    fileprivate func update(_ change: (inout FaultCounts) -> Void) { lock.withLock { change(&counted) } }

    /// The connection holding each scripted fault (nil: free to take).
    private lazy var scriptedHolders: [UInt64?] = Array(repeating: nil, count: plan.scripted.count)

    /// A scripted fault that has not fired and that no open connection holds, now held by `connection`.
    fileprivate func takeScripted(for connection: UInt64) -> ExchangeFault? {
        lock.withLock {
            for (index, fault) in plan.scripted.enumerated() where scriptedHolders[index] == nil {
                let fired =
                    switch fault {
                    case .none: true
                    case .dropRequest: counted.requestsDropped > 0
                    case .dropResponse: counted.responsesDropped > 0
                    case .cutRequest: counted.requestsCut > 0
                    case .cutResponse: counted.responsesCut > 0
                    }
                if fired { continue }
                scriptedHolders[index] = connection
                return fault
            }
            return nil
        }
    }

    /// The connection ended: what it held and did not fire goes to the next connection.
    fileprivate func releaseScripted(of connection: UInt64) {
        lock.withLock {
            for index in scriptedHolders.indices where scriptedHolders[index] == connection {
                scriptedHolders[index] = nil
            }
        }
    }

    fileprivate func closed(_ fds: [Int32]) {
        lock.withLock { live.removeAll { fds.contains($0) } }
        for fd in fds { close(fd) }
    }
}

/// One client connection and its connection to the server: two pumps (a thread each) sharing the exchange
/// tracker. A fault shuts both sockets down; the second pump to finish closes them.
private final class ProxiedConnection: @unchecked Sendable {
    let number: UInt64
    let client: Int32
    let server: Int32
    let plan: FaultPlan
    let proxy: FaultProxy
    /// Guards the tracker and the generators.
    private let lock = NSLock()
    private var tracker = TLSExchangeTracker()
    private var faults: SplitMix64
    private var delays: [SplitMix64]
    private let slow: Bool
    private var pumpsDone = 0
    /// Whether this connection took one of the plan's scripted faults (at most one each).
    private var tookScripted = false

    init(number: UInt64, client: Int32, server: Int32, plan: FaultPlan, proxy: FaultProxy) {
        self.number = number
        self.client = client
        self.server = server
        self.plan = plan
        self.proxy = proxy
        var generator = SplitMix64(seed: plan.seed ^ (number &* 0x9E37_79B9_7F4A_7C15))
        slow = Double.random(in: 0..<1, using: &generator) < plan.slowConnection
        delays = [SplitMix64(seed: generator.next()), SplitMix64(seed: generator.next())]
        faults = generator
    }

    /// FAULT_PROXY_TRACE=1 in the environment: every piece and what the proxy did with it, on standard error.
    static let trace = ProcessInfo.processInfo.environment["FAULT_PROXY_TRACE"] == "1"

    func pump(fromClient: Bool) {
        let (from, to) = fromClient ? (client, server) : (server, client)
        var splitter = TLSRecordSplitter()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        reading: while true {
            let n = recv(from, &buffer, buffer.count, 0)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            if slow { delay(fromClient) }
            let bytes = Array(buffer[0..<n])
            for piece in splitter.split(bytes) {
                let step = lock.withLock {
                    fromClient ? tracker.client(piece, draw: drawFault) : tracker.server(piece)
                }
                if Self.trace {
                    let line =
                        "proxy #\(number) \(fromClient ? "c>s" : "s>c") record \(piece.type) at \(piece.offset)"
                        + " of \(piece.total ?? -1), \(piece.range.count) bytes: \(step)\n"
                    FileHandle.standardError.write(Data(line.utf8))
                }
                switch step.action {
                case .forward:
                    guard LoopbackTCP.send(bytes[piece.range], to: to) else { break reading }
                case .cutAfter(let kept):
                    _ = LoopbackTCP.send(bytes[piece.range.prefix(kept)], to: to)
                    count(step.fired, exchanges: 0)
                    break reading
                }
            }
        }
        // Either side closing, or a fault, ends the connection both ways (before the other pump may close).
        shutdown(client, Int32(SHUT_RDWR))
        shutdown(server, Int32(SHUT_RDWR))
        let finished = lock.withLock {
            pumpsDone += 1
            return pumpsDone == 2 ? (tracker.exchanges, tracker.unpromptedServerRecords) : nil
        }
        if case (let exchanges, let unprompted)? = finished {
            count(nil, exchanges: exchanges)
            proxy.releaseScripted(of: number)
            proxy.update { $0.unpromptedServerRecords += unprompted }
            proxy.closed([client, server])
        }
    }

    /// Called with the lock held, from the client's pump.
    private func drawFault(exchange: Int) -> ExchangeFault {
        if exchange >= 2, !tookScripted, let fault = proxy.takeScripted(for: number) {
            tookScripted = true
            return fault
        }
        let roll = Double.random(in: 0..<1, using: &faults)
        let detail = Double.random(in: 0..<1, using: &faults)
        var threshold = plan.dropRequest
        if roll < threshold { return .dropRequest }
        threshold += plan.dropResponse
        if roll < threshold { return .dropResponse }
        threshold += plan.cutRequest
        if roll < threshold {
            return .cutRequest(record: detail < 0.5 ? 1 : 2, fraction: Double.random(in: 0..<1, using: &faults))
        }
        threshold += plan.cutResponse
        if roll < threshold { return .cutResponse(fraction: detail) }
        return .none
    }

    private func delay(_ fromClient: Bool) {
        let index = fromClient ? 0 : 1
        let (seconds, attoseconds) = plan.maximumDelay.components
        let maximum = Double(seconds) + Double(attoseconds) / 1e18
        let wait = lock.withLock { Double.random(in: 0...maximum, using: &delays[index]) }
        proxy.update { $0.delayedReads += 1 }
        Thread.sleep(forTimeInterval: wait)
    }

    private func count(_ fired: TLSExchangeTracker.Fired?, exchanges: Int) {
        proxy.update {
            $0.exchanges += exchanges
            switch fired {
            case .requestDropped: $0.requestsDropped += 1
            case .responseDropped: $0.responsesDropped += 1
            case .requestCut: $0.requestsCut += 1
            case .responseCut: $0.responsesCut += 1
            case nil: break
            }
        }
    }
}

/// A small seeded generator (SplitMix64), so a plan's faults replay.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
