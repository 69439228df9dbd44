import Foundation
import KioskCore
import KioskStore
import Logging
import NIOCore
import NIOPosix
import PassFormat
import ServiceLifecycle

/// The LAN between doors as a service of the kiosk: waits for this door's credential, then listens for links,
/// announces itself and dials the doors it hears, and pushes each item the door makes to every link. The door
/// loop never waits for any of it: items are committed to the database first, and this service reads them there.
public struct PeerService: Service {
    let event: EventID
    let settings: PeerSettings
    let verifier: any PassSignatureVerifier
    let logger: Logger
    let openStore: @Sendable () throws -> SQLiteDoorStore
    let linksChanged: @Sendable (Int) -> Void
    /// Told of the items each peer message brought that were new here (`kiosk-bench lan`'s clock).
    let applied: @Sendable ([PeerItem]) -> Void
    /// Called with the port links are accepted on, once listening (tests; the log says it too).
    let listening: @Sendable (Int) -> Void

    public init(
        event: EventID, settings: PeerSettings, verifier: any PassSignatureVerifier, logger: Logger,
        openStore: @escaping @Sendable () throws -> SQLiteDoorStore,
        linksChanged: @escaping @Sendable (Int) -> Void = { _ in },
        applied: @escaping @Sendable ([PeerItem]) -> Void = { _ in },
        listening: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.event = event
        self.settings = settings
        self.verifier = verifier
        self.logger = logger
        self.openStore = openStore
        self.linksChanged = linksChanged
        self.applied = applied
        self.listening = listening
    }

    /// How often the stored credential is looked at (the sync worker renews it with every heartbeat).
    static let credentialCheck: Duration = .seconds(5)
    /// After a failure (a port taken, an interface gone), the LAN is tried again this much later.
    static let retryAfter: Duration = .seconds(10)

    /// Runs until shutdown. A failure is logged and tried again: the LAN between doors never stops the door.
    public func run() async throws {
        try await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await runOnce()
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning("LAN between doors stopped: \(error); trying again in 10 s")
                    linksChanged(0)
                }
                // A shutdown during the wait ends the service cleanly: a CancellationError thrown from here made
                // the kiosk exit 1 on every `systemctl stop` while the LAN could not start (the HIL test's
                // guest, with no network, found it).
                do {
                    try await Task.sleep(for: Self.retryAfter)
                } catch {
                    return
                }
            }
        }
    }

    func runOnce() async throws {
        let exchange = try PeerExchange(
            event: event, verifier: verifier, logger: logger, linksChanged: linksChanged, applied: applied,
            openStore: openStore)
        let context = exchange.context
        let holder = PeerIdentityHolder()
        while holder.current == nil {
            do {
                if let identity = try await exchange.identity() { try holder.install(identity) }
            } catch {
                logger.warning("LAN between doors waits: \(error)")
            }
            if holder.current == nil { try await Task.sleep(for: Self.credentialCheck) }
        }
        let network = PeerNetwork(
            exchange: exchange, holder: holder, context: context, settings: settings, verifier: verifier,
            logger: logger, group: MultiThreadedEventLoopGroup.singleton)
        let (server, port) = try await network.listen()
        let discovery = PeerDiscovery(network: network)
        let datagrams: PeerDiscovery.Datagrams
        do {
            datagrams = try await discovery.open()
        } catch {
            try? await server.executeThenClose { _ in }
            throw error
        }
        logger.info("LAN between doors: accepting links on port \(port), announcing on \(settings.group)")
        listening(port)
        linksChanged(0)
        defer { Task { await exchange.closeAll() } }
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await network.accept(server) }
            tasks.addTask { try await discovery.run(datagrams, port: port) }
            tasks.addTask {
                var lastSaid = ContinuousClock.now
                while true {
                    try await Task.sleep(for: settings.pollEvery)
                    try await exchange.pushOwnItems()
                    try await exchange.pushNotices()
                    if ContinuousClock.now - lastSaid >= PeerExchange.keepAliveEvery {
                        await exchange.keepAlive()
                        lastSaid = ContinuousClock.now
                    }
                }
            }
            tasks.addTask {
                while true {
                    try await Task.sleep(for: Self.credentialCheck)
                    if let identity = try await exchange.identity(),
                        identity.credential != holder.current?.identity.credential
                    {
                        try holder.install(identity)
                        logger.info(
                            "LAN between doors: credential renewed, valid until \(identity.credential.notAfter)")
                    }
                }
            }
            defer { tasks.cancelAll() }
            try await tasks.next()
        }
    }
}

extension PeerExchange {
    /// This door's identity: its stored key pair (made on the first call) and its credential for the event, if
    /// the server has issued one.
    func identity() throws -> PeerIdentity? {
        guard let credential = try store.peerCredential(event: EventID(context.event)) else { return nil }
        guard let keys = try store.peerIdentity() else { return nil }
        let identity = try PeerIdentity(privateKey: keys.privateKey, credential: credential)
        signingKey = identity.signingKey
        return identity
    }
}
