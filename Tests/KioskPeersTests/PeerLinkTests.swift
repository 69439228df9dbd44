import Crypto
import DedicatedThreads
import Foundation
import KioskCore
import KioskStore
import NIOCore
import NIOPosix
import NIOSSL
import PassFormat
import SignedRecords
import TestSupport
import Testing

@testable import KioskPeers

/// Links between doors over real TLS 1.3 on loopback: doors with the server's credentials link and exchange their
/// items; a door that cannot show a valid credential for its own key and this event gets no link.
@Suite("Doors' links on the LAN")
struct PeerLinkTests {
    @Test("two doors with credentials link, and a check-in at one is a check-in at the other")
    func doorsLinkAndExchange() async throws {
        // The doors' tasks run on threads of their own: on the cooperative pool of a whole-suite run they waited
        // for seconds.
        try await PeerNode.withDoors([("dev-a", "North"), ("dev-b", "South")]) {
            (issuer: Issuer, doors: [PeerNode]) async throws in
            let (north, south) = (doors[0], doors[1])
            // Made before the link: it comes with the catch-up.
            try north.admit(PeerNode.roster[0])
            north.dial(south)
            let logs = { "North logged:\n\(north.log.text)\nSouth logged:\n\(south.log.text)" }
            #expect(try await eventually { await north.exchange.linkedDevices == ["dev-b"] }, "\(logs())")
            #expect(try await eventually { await south.exchange.linkedDevices == ["dev-a"] }, "\(logs())")
            // Made after: it is pushed.
            try south.admit(PeerNode.roster[1])
            let guests = PeerNode.roster.prefix(2)
            #expect(
                try await eventually {
                    let atSouth = try south.openStore()
                    let atNorth = try north.openStore()
                    guard
                        case .checkedIn(_, let first) = try atSouth.lookUp(
                            guest: guests[0].guest, event: guests[0].event),
                        case .checkedIn(_, let second) = try atNorth.lookUp(
                            guest: guests[1].guest, event: guests[1].event)
                    else { return false }
                    return first.door == "North" && second.door == "South"
                }, "\(logs())")
            // Each knows where the other is, linked.
            #expect(try south.openStore().peerSightings().map(\.door) == ["North"])
            #expect(try south.openStore().peerSightings().allSatisfy(\.linked))
            // Their clocks were compared at the hello: the same clock, so a skew of a few milliseconds, not flagged.
            let skew = try #require(try south.openStore().peerSightings().first?.clockSkewMs)
            #expect(abs(skew) < 5_000)
            #expect(try south.openStore().peerSightings().first?.clockWarning == nil)
        }
    }

    @Test("a door whose clock is 5 minutes ahead is flagged at its hello")
    func clocksAreComparedAtTheHello() async throws {
        try await PeerNode.withDoors([("dev-a", "North"), ("dev-f", "Fast")]) {
            (issuer: Issuer, doors: [PeerNode]) async throws in
            let (north, ahead) = (doors[0], doors[1])
            try await ahead.speak(to: north, clockAheadMs: 300_000) { _, _ in
                let measured = try await eventually { try north.openStore().peerSightings().first?.clockSkewMs != nil }
                #expect(measured)
            }
            let sighting = try #require(try north.openStore().peerSightings().first)
            #expect(sighting.door == "Fast")
            #expect((295_000...305_000).contains(sighting.clockSkewMs ?? 0))
            #expect(sighting.clockWarning == "clock 5 min ahead")
        }
    }

    /// An attacker's door: what it presents, and why it must not link.
    enum Forgery: String, CaseIterable, Sendable {
        case untrustedSigner = "a credential signed by a key the doors do not trust"
        case otherEvent = "a credential for another event of the tenant"
        case expired = "a credential that expired"
        case copiedCredential = "a real door's credential in a certificate of another key"
    }

    @Test("a door without a valid credential for its own key gets no link", arguments: Forgery.allCases)
    func forgeriesGetNoLink(_ forgery: Forgery) async throws {
        // The doors' tasks run on threads of their own: on the cooperative pool of a whole-suite run they waited
        // for seconds.
        try await withTaskExecutorPreference(ThreadExecutor.testServers) {
            let issuer = try Issuer()
            let victim = try await PeerNode(device: "dev-m", door: "North", issuer: issuer)
            let attacker: PeerNode
            switch forgery {
            case .untrustedSigner:
                let other = try Issuer()
                attacker = try await PeerNode(
                    device: "dev-z", door: "Rogue", issuer: issuer,
                    credential: { try other.credential(device: "dev-z", door: "Rogue", peerKey: $0) })
            case .otherEvent:
                attacker = try await PeerNode(
                    device: "dev-z", door: "Rogue", issuer: issuer,
                    credential: { try issuer.credential(device: "dev-z", door: "Rogue", peerKey: $0, event: 43) })
            case .expired:
                attacker = try await PeerNode(
                    device: "dev-z", door: "Rogue", issuer: issuer,
                    credential: {
                        try issuer.credential(
                            device: "dev-z", door: "Rogue", peerKey: $0, validFrom: Date().addingTimeInterval(-90_000))
                    })
            case .copiedCredential:
                // The attacker read South's credential off the wire (it is in South's certificate) but has not South's key.
                let southKey = P256.Signing.PrivateKey()
                let stolen = try issuer.credential(
                    device: "dev-z", door: "South", peerKey: Array(southKey.publicKey.x963Representation))
                attacker = try await PeerNode(
                    device: "dev-z", door: "South", issuer: issuer, credential: { _ in stolen }, forgedKey: true)
            }
            defer {
                Task {
                    await victim.stop()
                    await attacker.stop()
                }
            }
            try victim.admit(PeerNode.roster[0])
            // The attacker dials the victim, and the victim (whose id is smaller) dials the attacker.
            // Both attempts end (the handshake refused): a link that was made would still be running.
            let attempts = [attacker.dial(victim), victim.dial(attacker)]
            let ended = await allEnd(attempts)
            #expect(ended, "\(forgery.rawValue): a link was made")
            #expect(await victim.exchange.linkedDevices.isEmpty, "\(forgery.rawValue)")
            #expect(await attacker.exchange.linkedDevices.isEmpty, "\(forgery.rawValue)")
            // Nothing of the victim's reached the attacker, and the victim does not list it.
            #expect(
                try attacker.openStore().peerItems(event: EventID(Issuer.event), notCoveredBy: PeerVector(), limit: 10)
                    .isEmpty)
            #expect(try victim.openStore().peerSightings().isEmpty)
        }
    }

    @Test("a certificate's credential is checked: trusted signer, this event, in time, naming the certificate's key")
    func certificateChecks() throws {
        let issuer = try Issuer()
        let key = P256.Signing.PrivateKey()
        let peerKey = Array(key.publicKey.x963Representation)
        let good = try issuer.credential(device: "dev-a", door: "North", peerKey: peerKey)
        let identity = try PeerIdentity(privateKey: Array(key.rawRepresentation), credential: good)
        let checked = try PeerIdentity.verifiedCredential(
            of: identity.certificate, tenant: Issuer.tenant, event: Issuer.event, now: Date(), verifier: issuer.trusted)
        #expect(checked == good)
        // The same certificate is refused for another event, later than its validity, or by a kiosk of another tenant.
        #expect(throws: PeerError.self) {
            try PeerIdentity.verifiedCredential(
                of: identity.certificate, tenant: Issuer.tenant, event: 43, now: Date(), verifier: issuer.trusted)
        }
        #expect(throws: PeerError.self) {
            try PeerIdentity.verifiedCredential(
                of: identity.certificate, tenant: Issuer.tenant, event: Issuer.event,
                now: Date().addingTimeInterval(25 * 3600), verifier: issuer.trusted)
        }
        #expect(throws: PeerError.self) {
            try PeerIdentity.verifiedCredential(
                of: identity.certificate, tenant: 8, event: Issuer.event, now: Date(), verifier: issuer.trusted)
        }
        // A credential whose signed fields were changed after signing (another door name) does not verify.
        var changed = good
        changed.door = "Main"
        #expect(
            changed.check(
                tenant: Issuer.tenant, event: Issuer.event, now: Int64(Date().timeIntervalSince1970),
                verifier: issuer.trusted) == .badSignature)
        // A key pair whose public half is not the credential's: no certificate is made.
        #expect(throws: PeerError.self) {
            try PeerIdentity(privateKey: Array(P256.Signing.PrivateKey().rawRepresentation), credential: good)
        }
    }

    @Test("an announcement verifies only as sent: its credential, its port, its time")
    func announcements() throws {
        let issuer = try Issuer()
        let key = P256.Signing.PrivateKey()
        let credential = try issuer.credential(
            device: "dev-a", door: "North", peerKey: Array(key.publicKey.x963Representation))
        let now = Date()
        let sent = PeerAnnouncement(credential: credential, port: 7447, sentAt: Int64(now.timeIntervalSince1970 * 1000))
        let datagram = try sent.datagram(signedWith: key)
        let read = try PeerAnnouncement(
            datagram: datagram, tenant: Issuer.tenant, event: Issuer.event, now: now, verifier: issuer.trusted)
        #expect(read == sent)
        // Another port in the body: the signature no longer holds.
        var tampered = sent
        tampered.port = 7999
        let body = Array(try JSONEncoder().encode(tampered))
        let length = Int(datagram[0]) << 8 | Int(datagram[1])
        let forged = [UInt8(body.count >> 8), UInt8(body.count & 0xff)] + body + datagram[(2 + length)...]
        #expect(throws: PeerError.self) {
            try PeerAnnouncement(
                datagram: forged, tenant: Issuer.tenant, event: Issuer.event, now: now, verifier: issuer.trusted)
        }
        // Replayed ten minutes later; for another event; cut short; oversized.
        #expect(throws: PeerError.self) {
            try PeerAnnouncement(
                datagram: datagram, tenant: Issuer.tenant, event: Issuer.event, now: now.addingTimeInterval(600),
                verifier: issuer.trusted)
        }
        #expect(throws: PeerError.self) {
            try PeerAnnouncement(
                datagram: datagram, tenant: Issuer.tenant, event: 43, now: now, verifier: issuer.trusted)
        }
        #expect(throws: PeerError.self) {
            try PeerAnnouncement(
                datagram: Array(datagram.prefix(40)), tenant: Issuer.tenant, event: Issuer.event, now: now,
                verifier: issuer.trusted)
        }
        #expect(throws: PeerError.self) {
            try PeerAnnouncement(
                datagram: datagram + [UInt8](repeating: 0, count: 5000), tenant: Issuer.tenant, event: Issuer.event,
                now: now, verifier: issuer.trusted)
        }
    }
}

extension PeerLinkTests {
    @Test(
        "a linked door that sends items under another door's id has them dropped; its own are kept; a message of a later version's kind is skipped"
    )
    func aDoorSpeaksOnlyForItself() async throws {
        // The doors' tasks run on threads of their own: on the cooperative pool of a whole-suite run they waited
        // for seconds.
        try await PeerNode.withDoors([("dev-m", "North"), ("dev-r", "Rogue")]) {
            (issuer: Issuer, doors: [PeerNode]) async throws in
            let (victim, rogue) = (doors[0], doors[1])
            let guest = PeerNode.roster[3]
            func item(device: String, door: String, guest: RosterGuest) -> PeerItem {
                PeerItem(
                    device: device, epoch: "epoch-\(device)", sequence: 1, event: Issuer.event, guest: guest.guest.text,
                    kind: .checkIn, door: door, at: Int64(Date().timeIntervalSince1970 * 1000), arrived: 1,
                    source: "camera")
            }
            // The rogue door speaks the protocol itself, with its real credential: a hello, then one item of its own
            // and one under South's id claiming South admitted the guest.
            let message = PeerMessage.items([
                item(device: "dev-r", door: "Rogue", guest: PeerNode.roster[4]),
                item(device: "dev-s", door: "South", guest: guest),
            ])
            try await rogue.speak(to: victim) { outbound, allocator in
                // First a message of a kind a later version might add: skipped, the link stays up for the items.
                try await outbound.write(allocator.buffer(string: #"{"later":{"_0":[1,2]}}"#))
                try await outbound.write(message.encoded(allocator: allocator))
                #expect(
                    try await eventually {
                        let store = try victim.openStore()
                        return try store.lookUp(guest: PeerNode.roster[4].guest, event: EventID(Issuer.event))
                            != .admissible(PeerNode.roster[4])
                    })
            }
            let store = try victim.openStore()
            #expect(try store.lookUp(guest: guest.guest, event: EventID(Issuer.event)) == .admissible(guest))
            #expect(
                try store.peerItems(event: EventID(Issuer.event), notCoveredBy: PeerVector(), limit: 10).map(\.device)
                    == ["dev-r"])
        }
    }
}
