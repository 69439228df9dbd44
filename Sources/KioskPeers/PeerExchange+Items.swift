import Foundation
import KioskCore
import PassFormat
import SignedRecords

/// The doors' items on the links (docs/SYNC.md, "Between doors" and "Passed on through a door"): this door's own,
/// signed with its peer key as they are sent, and the other doors' it holds, passed on with their authors'
/// signatures and credentials, so that a scan reaches every door that some chain of links reaches.
extension PeerExchange {
    /// Sends the peer, in frames of `itemsPerFrame`, the items its vector does not cover: this door's own, and
    /// the other doors' that can be passed on (signed, by an author known and not revoked). Not the peer's own.
    func sendItems(notCoveredBy vector: PeerVector, to link: Link) async throws {
        let own = try store.ownPeerStream()
        // A door of an earlier version drops other doors' items: it is sent only this door's own.
        let items = try store.peerItems(event: EventID(context.event), notCoveredBy: vector, limit: Int.max)
            .filter { $0.device != link.credential.deviceId && (link.passesOn || $0.device == context.device) }
        var frame: [PeerItem] = []
        for item in items {
            guard let outgoing = try self.outgoing(item, own: own) else { continue }
            frame.append(outgoing)
            if frame.count == PeerMessage.itemsPerFrame {
                try await send(.items(frame), to: link)
                frame = []
            }
        }
        if !frame.isEmpty { try await send(.items(frame), to: link) }
    }

    /// An item as this door sends it: its own signed now, another door's with its signature and author's
    /// credential; nil for another door's item that cannot be passed on.
    func outgoing(_ item: PeerItem, own: PeerVector.Stream?) throws -> PeerItem? {
        // This door's own (of its current queue epoch, or of an earlier enrolment's): signed now.
        if item.stream == own || item.device == context.device {
            return try signingKey.map { try item.signed(with: $0) } ?? item.fact
        }
        guard item.signature != nil, let author = authors[item.device], !revocations.revokes(author) else {
            return nil
        }
        var passed = item
        passed.author = author
        return passed
    }

    /// Pushes this door's items made since the last look to every link (the door loop and `kioskctl` commit them
    /// to the database first; the door never waits for a peer).
    func pushOwnItems() async throws {
        let items = try store.ownPeerItems(after: pushedThrough, limit: PeerMessage.itemsPerFrame)
        guard let last = items.last else { return }
        pushedThrough = last.sequence
        let signed = try items.map { item in try signingKey.map { try item.signed(with: $0) } ?? item }
        for link in links.values { try? await send(.items(signed), to: link) }
    }

    /// Takes a peer's items. The linked door's own are its word (the link is authenticated); another door's are
    /// taken only with that door's signature, checked against its credential (signed by the server for this
    /// event, not revoked): a door can pass on a scan but not forge one. The new ones are kept and applied in one
    /// transaction, then passed on to the other links.
    func received(_ items: [PeerItem], from link: Link) async throws {
        guard items.count <= PeerMessage.itemsPerFrame else {
            throw PeerError(operation: "reading a door's items", detail: "\(items.count) in one frame")
        }
        // An empty message is the peer's keep-alive: nothing to write.
        guard !items.isEmpty else { return }
        heard(link.credential, address: link.address)
        var accepted: [PeerItem] = []
        var refused: (count: Int, why: String) = (0, "")
        for item in try store.unheldPeerItems(items) {
            if item.event != context.event {
                refused = (refused.count + 1, "of event \(item.event), not this door's \(context.event)")
            } else if item.device == link.credential.deviceId {
                // Its own: kept with its signature if that verifies (to pass it on), without one otherwise.
                var own = item.fact
                if item.isSigned(by: link.credential.peerKey) { own.signature = item.signature }
                accepted.append(own)
            } else if let why = refusal(of: item) {
                refused = (refused.count + 1, why)
            } else {
                accepted.append(item)
            }
        }
        if refused.count > 0 {
            logger.warning(
                "dropped \(refused.count) items that \(link.credential.door) passed on: \(refused.why)")
        }
        keepAuthors(accepted.compactMap(\.author))
        let fresh = try store.applyPeerItems(accepted, at: Date())
        guard !fresh.isEmpty else { return }
        // Passed on beside the link's reading loop, which never waits on another link's writes (a slow door, or
        // three doors passing items round, would otherwise hold each other up).
        Task(executorPreference: executor) { await self.relay(fresh, from: link) }
        let passedOn = Dictionary(grouping: fresh.filter { $0.device != link.credential.deviceId }, by: \.door)
        for (door, items) in passedOn.sorted(by: { $0.key < $1.key }) {
            logger.info("LAN: \(items.count) scans of \(door) passed on by \(link.credential.door)")
        }
        applied(fresh.map(\.fact))
    }

    /// Why an item another door passed on is not taken; nil when it is its author's.
    func refusal(of item: PeerItem) -> String? {
        guard let author = item.author, author.deviceId == item.device else {
            return "no credential of their author (kiosks of an earlier version do not sign their items)"
        }
        if !checkedAuthors.contains(author) {
            if let refusal = author.checkAsAuthor(tenant: context.tenant, event: context.event, verifier: verifier) {
                return "their author's \(refusal)"
            }
            if checkedAuthors.count >= 1024 { checkedAuthors.removeAll() }
            checkedAuthors.insert(author)
        }
        if revocations.revokes(author) { return "their author \(author.door) was revoked by the server" }
        guard item.isSigned(by: author.peerKey) else {
            return "their author's signature does not verify (altered or forged)"
        }
        return nil
    }

    /// Passes items new here on to every other link that takes them: not back to the door they came from, nor to
    /// their author, nor to a door whose hello vector covered them (it had them when it linked: a door that
    /// rejoins and catches up from five doors does not echo it all back to them).
    func relay(_ items: [PeerItem], from source: Link) async {
        let passable: [PeerItem]
        do {
            let own = try store.ownPeerStream()
            passable = try items.compactMap { try outgoing($0, own: own) }
        } catch {
            logger.warning("LAN: could not pass on items: \(error)")
            return
        }
        guard !passable.isEmpty else { return }
        for link in links.values where link.id != source.id && link.passesOn {
            let frame = passable.filter { item in
                item.device != link.credential.deviceId
                    && link.vector.covered(item.stream)?.contains(item.sequence) != true
            }
            if !frame.isEmpty { try? await send(.items(frame), to: link) }
        }
    }

    /// Keeps credentials of doors whose items this door holds, when newer than the one kept.
    func keepAuthors(_ credentials: [PeerCredential]) {
        var newer: [String: PeerCredential] = [:]
        for credential in credentials
        where credential.notBefore > (newer[credential.deviceId] ?? authors[credential.deviceId])?.notBefore ?? .min {
            newer[credential.deviceId] = credential
        }
        guard !newer.isEmpty else { return }
        authors.merge(newer) { _, new in new }
        do {
            try store.keepPeerAuthors(Array(newer.values), at: Date())
        } catch {
            logger.warning("could not keep the credentials of doors on the LAN: \(error)")
        }
    }
}
