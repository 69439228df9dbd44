import Crypto
import Cryptography
import DedicatedThreads
import Foundation
import KioskCore
import KioskStore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import PassFormat
import SignedRecords
import TestSupport

@testable import KioskPeers

/// The tenant's signing key in these tests, and the kiosks' trust in it.
struct Issuer {
    static let tenant: UInt32 = 7
    static let event: UInt32 = 42
    let keyID: KeyID
    let key: Ed25519PrivateKey
    var trusted: TrustedKeys

    init(keyID: KeyID = 1000) throws {
        self.keyID = keyID
        key = try Ed25519PrivateKey.generate()
        trusted = TrustedKeys()
        trusted.trust(try key.publicKey, as: keyID)
    }

    /// The server's signed row of `guest` at `version`, as a delta brings it.
    func notice(_ guest: RosterGuest, version: Int64) throws -> GuestNotice {
        var notice = GuestNotice(keyID: keyID, guest: guest, version: version)
        notice.signature = try key.sign(notice.signedMessage)
        return notice
    }

    /// The server's signed revocation of `device` at `at`.
    func revocation(of device: String, at: Date = Date()) throws -> DeviceRevocation {
        var revocation = DeviceRevocation(
            keyID: keyID, tenant: Issuer.tenant, event: Issuer.event, deviceId: device,
            revokedAt: Int64(at.timeIntervalSince1970.rounded(.up)))
        revocation.signature = try key.sign(revocation.signedMessage)
        return revocation
    }

    /// A credential for `device` holding `peerKey`, signed by this issuer.
    func credential(
        device: String, door: String, peerKey: [UInt8], event: UInt32 = Issuer.event, validFrom: Date = Date(),
        hours: Int64 = 24
    ) throws -> PeerCredential {
        let from = Int64(validFrom.timeIntervalSince1970)
        var credential = PeerCredential(
            keyID: keyID, tenant: Issuer.tenant, event: event, deviceId: device, door: door, peerKey: peerKey,
            notBefore: from, notAfter: from + hours * 3600)
        credential.signature = try key.sign(credential.signedMessage)
        return credential
    }
}

/// One door of these tests, in this process: an enrolled store, its exchange and its TLS listener on loopback.
final class PeerNode: Sendable {
    let device: String
    let door: String
    let path: String
    let key: DatabaseKey
    let exchange: PeerExchange
    let network: PeerNetwork
    let port: Int
    let accepting: Task<Void, any Error>
    let pushing: Task<Void, any Error>
    /// What this door logged (info and up): a failing expectation shows it.
    let log: LogLines

    static let roster = (1...20).map { n in
        RosterGuest(
            guest: GuestID(bytes: [UInt8](repeating: UInt8(n), count: GuestID.byteCount))!,
            tenant: TenantID(Issuer.tenant), event: EventID(Issuer.event), name: "Guest \(n)",
            email: "guest\(n)@example.org", partySize: 1, status: .active, notes: "")
    }

    /// A door whose credential `credential` makes from its peer key (a valid one by default), with `issuer`'s key
    /// trusted. `forgedKey`: the certificate is made with another key than the credential's.
    init(
        device: String, door: String, issuer: Issuer,
        credential: ((_ peerKey: [UInt8]) throws -> PeerCredential)? = nil, forgedKey: Bool = false,
        handshakeLimit: Duration = .seconds(5),
        applied: @escaping @Sendable ([PeerItem]) -> Void = { _ in }
    ) async throws {
        self.device = device
        self.door = door
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("peers-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        path = folder + "/kiosk.db"
        key = DatabaseKey.random()
        let store = try SQLiteDoorStore(path: path, mode: .createIfMissing, key: key)
        try store.upsertGuests(Self.roster)
        try store.saveEnrolment(
            SyncEnrolment(
                serverURL: "https://checkin.invalid", deviceID: device, token: "token-\(device)",
                tenant: TenantID(Issuer.tenant), queueEpoch: "epoch-\(device)", caFile: nil, enrolledAt: Date()))
        let pair = PeerIdentity.newKeyPair()
        try store.savePeerIdentity(privateKey: pair.privateKey, publicKey: pair.publicKey, at: Date())
        let made =
            try credential?(pair.publicKey) ?? issuer.credential(device: device, door: door, peerKey: pair.publicKey)
        try store.savePeerCredentials([made], at: Date())
        let log = LogLines()
        self.log = log
        var logger = Logger(label: "peers-\(door)") { _ in log }
        logger.logLevel = .info
        exchange = try PeerExchange(
            event: EventID(Issuer.event), verifier: issuer.trusted, logger: logger, applied: applied,
            executor: ThreadExecutor.testServers
        ) { store }
        let holder = PeerIdentityHolder()
        if forgedKey {
            try holder.install(PeerIdentity(key: P256.Signing.PrivateKey(), credential: made, checkingKey: false))
        } else {
            try holder.install(try PeerIdentity(privateKey: pair.privateKey, credential: made))
            // As the LAN service does: the exchange signs this door's items with the identity's key.
            _ = try await exchange.identity()
        }
        network = PeerNetwork(
            exchange: exchange, holder: holder,
            context: await exchange.context,
            // Keep-alives go out from a task, which a whole-suite run on 2 cores can hold up longer than a door's
            // 15 s (a relay test lost its link that way, and these nodes dial once, where a kiosk dials again):
            // here a link is closed for silence only after 2 minutes. No test here is about silence.
            settings: PeerSettings(
                port: 0, interface: "127.0.0.1", silentLinkLimit: .seconds(120), handshakeLimit: handshakeLimit),
            verifier: issuer.trusted, logger: logger,
            group: MultiThreadedEventLoopGroup.singleton)
        let (server, port) = try await network.listen()
        self.port = port
        let network = self.network
        accepting = Task(executorPreference: ThreadExecutor.testServers) { try await network.accept(server) }
        let exchange = self.exchange
        pushing = Task(executorPreference: ThreadExecutor.testServers) {
            var lastSaid = ContinuousClock.now
            while true {
                try await Task.sleep(for: .milliseconds(20))
                try await exchange.pushOwnItems()
                try await exchange.pushNotices()
                if ContinuousClock.now - lastSaid >= PeerExchange.keepAliveEvery {
                    await exchange.keepAlive()
                    lastSaid = ContinuousClock.now
                }
            }
        }
    }

    /// Another connection to this door's database.
    func openStore() throws -> SQLiteDoorStore { try SQLiteDoorStore(path: path, mode: .openExisting, key: key) }

    /// Dials `other` and runs the link in the background.
    /// Dials `other` and runs the link in the background; the task ends when the link does (or fails to be made).
    @discardableResult
    func dial(_ other: PeerNode) -> Task<Void, Never> {
        let network = self.network
        return Task(executorPreference: ThreadExecutor.testServers) {
            await network.dial(host: "127.0.0.1", port: other.port, device: other.device)
        }
    }

    /// Opens a link to `other` and speaks the protocol by hand as this door (a rogue door's messages), with this
    /// door's real credential and a hello that says its clock is `clockAheadMs` ahead (or, given `sentAt`, that it
    /// is that); the link closes when `body` returns.
    func speak(
        to other: PeerNode, clockAheadMs: Int64 = 0, sentAt: Int64? = nil,
        _ body: @Sendable (NIOAsyncChannelOutboundWriter<ByteBuffer>, ByteBufferAllocator) async throws -> Void
    ) async throws {
        let network = self.network
        let link = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: other.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let peer = VerifiedPeer()
                    try channel.pipeline.syncOperations.addHandler(
                        try NIOSSLClientHandler(context: network.holder.current!.client, serverHostname: nil) {
                            certificates, promise in promise.succeed(network.verify(certificates, into: peer))
                        })
                    return try network.addFraming(channel, peer: peer)
                }
            }
        try await link.channel.executeThenClose { inbound, outbound in
            try await outbound.write(
                PeerMessage.hello(
                    vector: PeerVector(), sentAt: sentAt ?? Int64(Date().timeIntervalSince1970 * 1000) + clockAheadMs,
                    passesOn: true
                )
                .encoded(allocator: link.channel.channel.allocator))
            try await body(outbound, link.channel.channel.allocator)
            _ = inbound
        }
    }

    /// Admits `guest` here as the door loop does (check-in, queue and audit in one transaction).
    func admit(_ guest: RosterGuest, at time: Date = Date()) throws {
        let checkIn = CheckIn(guest: guest.guest, event: guest.event, door: door, at: time, arrived: 1, source: .camera)
        _ = try openStore().record(
            checkIn: checkIn,
            attempt: ScanAttempt(
                at: time, door: door, source: .camera, payload: guest.guest.text, guest: guest.guest,
                verdict: "admitted", reason: "valid pass"))
    }

    func stop() async {
        await exchange.closeAll()
        accepting.cancel()
        pushing.cancel()
    }

    /// Runs `body` with one door per (device, door), all with credentials of one issuer, on the test threads (on
    /// the cooperative pool of a whole-suite run the doors' tasks waited for seconds); the doors are stopped when
    /// `body` ends, however it ends.
    static func withDoors(
        _ doors: [(device: String, door: String)], _ body: (Issuer, [PeerNode]) async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(ThreadExecutor.testServers) {
            let issuer = try Issuer()
            var nodes: [PeerNode] = []
            do {
                for door in doors {
                    nodes.append(try await PeerNode(device: door.device, door: door.door, issuer: issuer))
                }
                try await body(issuer, nodes)
            } catch {
                for node in nodes { await node.stop() }
                throw error
            }
            for node in nodes { await node.stop() }
        }
    }
}

/// Whether `attempts` (dials) all end within `seconds`: a link that was made runs on, so it does not (and is left
/// running: the test fails, and does not hang on it).
func allEnd(_ attempts: [Task<Void, Never>], seconds: Double = 60) async -> Bool {
    let ended = NIOLockedValueBox(false)
    Task(executorPreference: ThreadExecutor.testServers) {
        for attempt in attempts { await attempt.value }
        ended.withLockedValue { $0 = true }
    }
    return (try? await eventually(within: .seconds(seconds)) { ended.withLockedValue { $0 } }) ?? false
}

/// A log handler that keeps the lines logged, for a failing test to show.
struct LogLines: LogHandler {
    private let lines = NIOLockedValueBox<[String]>([])
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let at = Date().timeIntervalSince1970
        lines.withLockedValue { $0.append("\(at) \(event.level) \(event.message)") }
    }

    /// Everything logged so far, a line each.
    var text: String { lines.withLockedValue { $0.joined(separator: "\n") } }
}
