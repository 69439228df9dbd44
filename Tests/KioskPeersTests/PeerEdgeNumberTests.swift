import Crypto
import DedicatedThreads
import Foundation
import KioskCore
import KioskStore
import NIOCore
import TestSupport
import Testing

@testable import KioskPeers

/// A door of the event (a stolen kiosk, say, until its revocation reaches the doors) that states a time at the edge
/// of Int64: the door that hears it refuses the message and stays up. `sentAt - now` trapped on a hello of -2^63,
/// and `abs(sentAt - now)` on such an announcement, so one message killed every door it reached.
@Suite("Doors' links: times at the edges of their type")
struct PeerEdgeNumberTests {
    @Test("a hello whose clock is at the edge of Int64 gets no link, and the door still links with others")
    func aHelloAtTheEdgeOfInt64IsRefused() async throws {
        try await PeerNode.withDoors([("dev-a", "North"), ("dev-r", "Rogue"), ("dev-b", "South")]) {
            (issuer: Issuer, doors: [PeerNode]) async throws in
            let (north, rogue, south) = (doors[0], doors[1], doors[2])
            for sentAt in [Int64.min, Int64.max, -1] {
                // The link is closed by North on the hello: the rogue's writes then fail or go unread.
                try? await rogue.speak(to: north, sentAt: sentAt) { _, _ in
                    let closed = try await eventually(within: .seconds(10)) {
                        await north.exchange.linkedDevices.isEmpty
                    }
                    #expect(closed)
                }
                #expect(await north.exchange.linkedDevices.isEmpty, "a hello of \(sentAt) linked")
                #expect(try north.openStore().peerSightings().allSatisfy { $0.clockSkewMs == nil })
            }
            // North is up and links with a genuine door.
            north.dial(south)
            #expect(try await eventually { await north.exchange.linkedDevices == ["dev-b"] })
        }
    }

    @Test("an announcement whose time is at the edge of Int64 is refused")
    func anAnnouncementAtTheEdgeOfInt64IsRefused() throws {
        let issuer = try Issuer()
        let key = P256.Signing.PrivateKey()
        let credential = try issuer.credential(
            device: "dev-a", door: "North", peerKey: Array(key.publicKey.x963Representation))
        for sentAt in [Int64.min, Int64.max, Int64.min + 1] {
            let datagram = try PeerAnnouncement(credential: credential, port: 7447, sentAt: sentAt)
                .datagram(signedWith: key)
            #expect(throws: PeerError.self, "an announcement sent at \(sentAt)") {
                try PeerAnnouncement(
                    datagram: datagram, tenant: Issuer.tenant, event: Issuer.event, now: Date(),
                    verifier: issuer.trusted)
            }
        }
    }

    @Test("a skew read back from the database at the edge of Int64 is said, not trapped on")
    func aSkewAtTheEdgeOfInt64IsSaid() {
        #expect(PeerSighting.clockWarning(skewMs: .min) == "clock 2562047788015 h behind")
        #expect(PeerSighting.clockWarning(skewMs: .max) == "clock 2562047788015 h ahead")
        #expect(PeerSighting.clockWarning(skewMs: -300_000) == "clock 5 min behind")
    }
}
