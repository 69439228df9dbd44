import Crypto
import Foundation
import KioskCore
import KioskStore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL
import PassFormat
import SignedRecords

/// The doors' exchange of items, as one door runs it: the links to its peers, what each new item reaches, and the
/// kiosk's database (its own connection) where the items are kept and applied. Everything that changes state goes
/// through this actor; the links' reading loops and the multicast discovery call into it.
public actor PeerExchange {
    public struct Context: Sendable {
        public var tenant: UInt32
        public var event: UInt32
        public var device: String

        public init(tenant: UInt32, event: UInt32, device: String) {
            self.tenant = tenant
            self.event = event
            self.device = device
        }
    }

    /// A door linked to this one: where to write, and who it is.
    final class Link: Sendable {
        let id: Int
        let credential: PeerCredential
        let address: String
        /// Its clock minus this door's, from its hello (milliseconds).
        let clockSkewMs: Int64
        /// What it held when it said hello: items that vector covers are not passed on to it.
        let vector: PeerVector
        /// Whether it takes other doors' items passed on (its hello says so; a door of an earlier version does not).
        let passesOn: Bool
        let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
        let channel: any Channel

        init(
            id: Int, credential: PeerCredential, address: String, clockSkewMs: Int64, vector: PeerVector,
            passesOn: Bool, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, channel: any Channel
        ) {
            self.id = id
            self.credential = credential
            self.address = address
            self.clockSkewMs = clockSkewMs
            self.vector = vector
            self.passesOn = passesOn
            self.outbound = outbound
            self.channel = channel
        }
    }

    let context: Context
    let store: SQLiteDoorStore
    /// The kiosk's trusted pass keys: the server's notices a peer passes on are checked with them.
    let verifier: any PassSignatureVerifier
    let logger: Logger
    let linksChanged: @Sendable (Int) -> Void
    /// Told of the items each message from a peer brought that were new here (the benchmark's and tests' clock).
    let applied: @Sendable ([PeerItem]) -> Void
    /// Where the exchange's own tasks run (a link's catch-up, items passed on, a link's end): nil, the global
    /// pool. A task started with `Task {}` does not inherit its starter's executor, so a test whose doors run on
    /// threads of their own passes those threads here too; otherwise a catch-up could wait on a cooperative pool
    /// that the rest of a whole-suite run keeps busy for a minute.
    nonisolated let executor: (any TaskExecutor)?
    var links: [String: Link] = [:]
    /// The dials under way, by device and address (`device@host:port`): each its own, so a silent one at a
    /// replayed address holds up no other.
    var dialing: Set<String> = []
    var nextLinkID = 0
    var lastNoted: [String: (address: String, at: Date)] = [:]
    /// The highest sequence of this door's own items already pushed to the links.
    var pushedThrough: Int64 = 0
    /// The last guest row and revocation (their order of arrival here) already pushed to the links.
    var guestsPushedThrough: Int64 = 0
    var revocationsPushedThrough: Int64 = 0
    /// The devices the server revoked: their links are refused and closed.
    nonisolated let revocations = PeerRevocations()
    /// This door's peer key, which signs its items (set with its identity).
    var signingKey: P256.Signing.PrivateKey?
    /// The newest credential of each door whose items this door holds, by device id (`peer_authors`): sent with
    /// the door's items passed on.
    var authors: [String: PeerCredential] = [:]
    /// Authors' credentials already checked (the server's signature), so that each is checked once.
    var checkedAuthors: Set<PeerCredential> = []

    /// Opens the exchange of the enrolled kiosk whose database `openStore` opens, for `event`.
    public init(
        event: EventID, verifier: any PassSignatureVerifier, logger: Logger,
        linksChanged: @escaping @Sendable (Int) -> Void = { _ in },
        applied: @escaping @Sendable ([PeerItem]) -> Void = { _ in }, executor: (any TaskExecutor)? = nil,
        openStore: () throws -> SQLiteDoorStore
    ) throws {
        let store = try openStore()
        guard let enrolment = try store.enrolment() else {
            throw PeerError(
                operation: "starting the LAN between doors",
                detail: "this kiosk is not enrolled (kioskctl enroll gives it its identity)")
        }
        self.context = Context(
            tenant: enrolment.tenant.rawValue, event: event.rawValue, device: enrolment.deviceID)
        self.verifier = verifier
        self.logger = logger
        self.linksChanged = linksChanged
        self.applied = applied
        self.executor = executor
        self.store = store
        self.pushedThrough = try store.ownPeerSequence()
        revocations.note(try store.revocations(event: event).map(\.notice))
        for author in try store.peerAuthors(event: event) { authors[author.deviceId] = author }
        (guestsPushedThrough, revocationsPushedThrough) = try store.peerNoticeMarks(event: event)
        // Links from before a restart are down.
        for sighting in try store.peerSightings() where sighting.linked {
            var down = sighting
            down.linked = false
            try store.recordPeerSighting(down)
        }
    }

    /// The doors linked now.
    public var linkedDevices: [String] { links.keys.sorted() }

    // MARK: links

    /// Runs one authenticated link until it closes: hello, the catch-up both ways, then the items as they come.
    /// `credential` is the peer's, checked in the TLS handshake.
    nonisolated func run(
        _ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>, credential: @escaping @Sendable () -> PeerCredential?
    ) async {
        let address = channel.channel.remoteAddress.map { "\($0.ipAddress ?? "?"):\($0.port ?? 0)" } ?? "?"
        do {
            try await channel.executeThenClose { inbound, outbound in
                try await outbound.write(
                    PeerMessage.hello(
                        vector: try await self.vector(), sentAt: Int64(Date().timeIntervalSince1970 * 1000),
                        passesOn: true
                    ).encoded(allocator: channel.channel.allocator))
                var link: Link?
                defer { if let link { Task(executorPreference: self.executor) { await self.unlink(link) } } }
                for try await frame in inbound {
                    // A kind of message a later version added is skipped (its sender is on a later version).
                    guard let message = try PeerMessage.decoded(frame) else { continue }
                    switch message {
                    case .hello(let vector, let sentAt, let passesOn):
                        guard link == nil, let peer = credential() else {
                            throw PeerError(operation: "linking a door", detail: "a second hello, or no credential")
                        }
                        // On a LAN the hello takes a millisecond or two: its time against ours is the clocks' skew
                        // (both within 1970...9999, `PeerMessage.decoded`: the difference fits).
                        let skew = sentAt - Int64(Date().timeIntervalSince1970 * 1000)
                        let made = await self.link(
                            peer, address: address, clockSkewMs: skew, vector: vector, passesOn: passesOn == true,
                            outbound: outbound, channel: channel.channel)
                        link = made
                        // The catch-up is sent beside this loop, which goes on reading: two doors that owe each
                        // other more than the buffers between them hold would otherwise each wait on its writes
                        // while neither reads.
                        Task(executorPreference: self.executor) {
                            do {
                                try await self.catchUp(made, vector: vector)
                            } catch {
                                self.logger.info("LAN catch-up with \(address) stopped: \(error)")
                                made.channel.close(promise: nil)
                            }
                        }
                    case .items(let items):
                        guard let link else {
                            throw PeerError(operation: "linking a door", detail: "items before its hello")
                        }
                        try await self.received(items, from: link)
                    case .guests(let notices):
                        guard let link else {
                            throw PeerError(operation: "linking a door", detail: "guest rows before its hello")
                        }
                        try await self.received(notices, from: link)
                    case .revocations(let notices):
                        guard let link else {
                            throw PeerError(operation: "linking a door", detail: "revocations before its hello")
                        }
                        try await self.received(notices, from: link)
                    }
                }
            }
        } catch {
            logger.info("LAN link with \(address) closed: \(error)")
        }
    }

    func vector() throws -> PeerVector { try store.peerVector(event: EventID(context.event)) }

    func link(
        _ peer: PeerCredential, address: String, clockSkewMs: Int64, vector: PeerVector, passesOn: Bool,
        outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
        channel: any Channel
    ) -> Link {
        nextLinkID += 1
        let link = Link(
            id: nextLinkID, credential: peer, address: address, clockSkewMs: clockSkewMs, vector: vector,
            passesOn: passesOn, outbound: outbound, channel: channel)
        if let previous = links[peer.deviceId] {
            // The same door again (it reconnected before this side saw the old link fail): the new link wins.
            previous.channel.close(promise: nil)
        }
        links[peer.deviceId] = link
        logger.info("LAN link up with \(peer.door) (\(peer.deviceId)) at \(address)")
        sighted(peer, address: address, clockSkewMs: clockSkewMs)
        keepAuthors([peer])
        if let warning = PeerSighting.clockWarning(skewMs: clockSkewMs) {
            logger.warning(
                "LAN: \(peer.door)'s \(warning) of this door's: a scan's time there and here disagree; check both clocks (NTP)"
            )
        }
        linksChanged(links.count)
        return link
    }

    func unlink(_ link: Link) {
        guard links[link.credential.deviceId]?.id == link.id else { return }
        links[link.credential.deviceId] = nil
        logger.info("LAN link down with \(link.credential.door) (\(link.credential.deviceId))")
        sighted(link.credential, address: link.address)
        linksChanged(links.count)
    }

    /// Sends the peer what its vector does not cover (`sendItems`), then the server's notices held.
    func catchUp(_ link: Link, vector: PeerVector) async throws {
        try await sendItems(notCoveredBy: vector, to: link)
        // Then every guest row and revocation held: few (the changes of the event since its rosters were
        // downloaded), and a door new to the LAN may have missed any of them.
        var after: Int64 = 0
        while true {
            let kept = try store.guestNotices(
                event: EventID(context.event), after: after, limit: PeerMessage.noticesPerFrame)
            guard let last = kept.last else { break }
            try await send(.guests(kept.map(\.notice)), to: link)
            after = last.id
        }
        let revoked = try store.revocations(event: EventID(context.event)).map(\.notice)
        for start in stride(from: 0, to: revoked.count, by: PeerMessage.noticesPerFrame) {
            let end = min(start + PeerMessage.noticesPerFrame, revoked.count)
            try await send(.revocations(Array(revoked[start..<end])), to: link)
        }
    }

    /// Takes the server's guest rows a peer passed on: each checked (signed by a trusted key, for this event), the
    /// new ones kept and applied to the roster (`applyGuestNotices`); the push passes those on to the other links.
    func received(_ notices: [GuestNotice], from link: Link) async throws {
        guard notices.count <= PeerMessage.noticesPerFrame else {
            throw PeerError(operation: "reading a door's guest rows", detail: "\(notices.count) in one frame")
        }
        let checked = self.checked(try store.unheldGuestNotices(notices), from: link)
        guard !checked.isEmpty else { return }
        let fresh = try store.applyGuestNotices(checked, at: Date())
        heard(link.credential, address: link.address)
        if !fresh.isEmpty {
            logger.info("LAN: \(fresh.count) roster changes from \(link.credential.door) (signed by the server)")
        }
    }

    /// Takes the server's revocations a peer passed on, checked like guest rows; a link with a device now revoked
    /// is closed.
    func received(_ notices: [DeviceRevocation], from link: Link) async throws {
        guard notices.count <= PeerMessage.noticesPerFrame else {
            throw PeerError(operation: "reading a door's revocations", detail: "\(notices.count) in one frame")
        }
        let checked = self.checked(notices, from: link)
        guard !checked.isEmpty else { return }
        let fresh = try store.keepRevocations(checked, at: Date())
        heard(link.credential, address: link.address)
        noteRevoked(fresh)
    }

    /// The notices that are the server's for this event; the others are dropped and logged (a peer that sends
    /// one has altered or forged it).
    func checked<Notice: PeerNotice>(_ notices: [Notice], from link: Link) -> [Notice] {
        var refused: PeerNoticeRefusal?
        let checked = notices.filter { notice in
            let refusal = notice.check(tenant: context.tenant, event: context.event, verifier: verifier)
            if let refusal { refused = refusal }
            return refusal == nil
        }
        if let refused {
            logger.warning(
                "dropped \(notices.count - checked.count) notices from \(link.credential.door): \(refused)")
        }
        return checked
    }

    /// Notes revocations and closes the links of the devices they revoke.
    func noteRevoked(_ fresh: [DeviceRevocation]) {
        guard !fresh.isEmpty else { return }
        revocations.note(fresh)
        for link in links.values where revocations.revokes(link.credential) {
            logger.warning("LAN: closing the link with \(link.credential.door): the server revoked it")
            link.channel.close(promise: nil)
        }
    }

    /// Pushes the guest rows and revocations kept since the last look (fetched by this door's sync, or passed on
    /// by a peer) to every link; a peer that has one already keeps it once.
    func pushNotices() async throws {
        let event = EventID(context.event)
        let guests = try store.guestNotices(
            event: event, after: guestsPushedThrough, limit: PeerMessage.noticesPerFrame)
        if let last = guests.last {
            guestsPushedThrough = last.id
            for link in links.values { try? await send(.guests(guests.map(\.notice)), to: link) }
        }
        let revoked = try store.revocations(event: event, after: revocationsPushedThrough)
            .prefix(PeerMessage.noticesPerFrame)
        if let last = revoked.last {
            revocationsPushedThrough = last.id
            noteRevoked(revoked.map(\.notice))
            for link in links.values { try? await send(.revocations(revoked.map(\.notice)), to: link) }
        }
    }

    func send(_ message: PeerMessage, to link: Link) async throws {
        try await link.outbound.write(message.encoded(allocator: link.channel.allocator))
    }

    /// How often a door says something on each link when it has nothing to send (an empty items message).
    static let keepAliveEvery: Duration = .seconds(5)

    /// Tells every link this door is still there.
    func keepAlive() async {
        for link in links.values { try? await send(.items([]), to: link) }
    }

    // MARK: sightings

    /// Notes a door heard (an announcement, a link, a message), for `kioskctl status` and the heartbeat.
    func sighted(_ peer: PeerCredential, address: String, clockSkewMs: Int64? = nil) {
        do {
            try store.recordPeerSighting(
                PeerSighting(
                    device: peer.deviceId, door: peer.door, address: address,
                    lastHeard: Int64(Date().timeIntervalSince1970 * 1000), linked: links[peer.deviceId] != nil,
                    clockSkewMs: clockSkewMs))
        } catch {
            logger.warning("could not note the door \(peer.door) seen on the LAN: \(error)")
        }
    }

    /// Whether this door should dial `peer` at `address` now: it is not linked, not being dialed there, and of the
    /// two doors this one has the smaller device id (so each pair makes one link).
    func shouldDial(_ peer: PeerCredential, address: String) -> Bool {
        let key = peer.deviceId + "@" + address
        guard peer.deviceId != context.device, links[peer.deviceId] == nil, !dialing.contains(key),
            context.device < peer.deviceId
        else { return false }
        dialing.insert(key)
        return true
    }

    func dialEnded(_ device: String, address: String) { dialing.remove(device + "@" + address) }

    /// Closes every link (shutdown).
    func closeAll() {
        for link in links.values { link.channel.close(promise: nil) }
    }
}

extension PeerExchange {
    /// A door was heard (an announcement, a message): noted at most every 10 s per door, or when its address
    /// changes.
    func heard(_ peer: PeerCredential, address: String) {
        let now = Date()
        if let last = lastNoted[peer.deviceId], last.address == address, now.timeIntervalSince(last.at) < 10 { return }
        lastNoted[peer.deviceId] = (address, now)
        sighted(peer, address: address)
    }

    /// A door announced itself: noted, and whether to dial it now.
    func announced(_ peer: PeerCredential, address: String) -> Bool {
        heard(peer, address: address)
        return shouldDial(peer, address: address)
    }
}
