import Crypto
import DedicatedThreads
import Foundation
import KioskCore
import KioskStore
import NIOCore
import PassFormat
import SignedRecords
import TestSupport
import Testing

@testable import KioskPeers

/// Doors pass on each other's scans (issue 23): a check-in made at North reaches South through Middle when North
/// and South cannot see each other, at the catch-up and as it happens, because North signed it; a door cannot
/// pass on a scan it made up, altered, or whose author the server revoked.
@Suite("Scans passed on through a door")
struct PeerRelayTests {
    static let event = EventID(Issuer.event)

    /// The guest's check-in at `node`, if it holds one.
    static func checkIn(of guest: RosterGuest, at node: PeerNode) throws -> CheckIn? {
        switch try node.openStore().lookUp(guest: guest.guest, event: event) {
        case .checkedIn(_, let checkIn), .doubleEntry(_, let checkIn): checkIn
        default: nil
        }
    }

    @Test("North's scans reach South through Middle, at the catch-up and as they happen, signed by North")
    func scansTravelThroughAThirdDoor() async throws {
        try await withTaskExecutorPreference(ThreadExecutor.testServers) {
            let issuer = try Issuer()
            let north = try await PeerNode(device: "dev-a", door: "North", issuer: issuer)
            let middle = try await PeerNode(device: "dev-b", door: "Middle", issuer: issuer)
            let south = try await PeerNode(device: "dev-c", door: "South", issuer: issuer)
            defer {
                Task {
                    for node in [north, middle, south] { await node.stop() }
                }
            }
            north.dial(middle)
            #expect(try await eventually { await middle.exchange.linkedDevices == ["dev-a"] })
            let early = PeerNode.roster[1]
            try north.admit(early)
            #expect(try await eventually { try Self.checkIn(of: early, at: middle)?.door == "North" })
            // South links with Middle only after the scan: the catch-up brings it.
            middle.dial(south)
            #expect(try await eventually { try Self.checkIn(of: early, at: south)?.door == "North" })
            // A scan made while they are linked reaches South as it happens.
            let late = PeerNode.roster[2]
            try north.admit(late)
            #expect(try await eventually { try Self.checkIn(of: late, at: south)?.door == "North" })
            #expect(await south.exchange.linkedDevices == ["dev-b"])
            // South holds North's items with North's signature (so it can pass them on in turn), queues none of
            // them for its own upload (each door uploads only its own scans), and keeps North's credential.
            let atSouth = try south.openStore()
            let held = try atSouth.peerItems(event: Self.event, notCoveredBy: PeerVector(), limit: 10)
            #expect(held.map(\.device) == ["dev-a", "dev-a"])
            let northKey = try north.openStore().peerIdentity()!.publicKey
            #expect(held.allSatisfy { $0.isSigned(by: northKey) })
            #expect(try atSouth.pendingCount() == 0)
            #expect(try atSouth.peerAuthors(event: Self.event).map(\.deviceId) == ["dev-a", "dev-b"])
        }
    }

    @Test("a scan passed on that its author did not sign, or whose author was revoked, is dropped")
    func forgedScansAreDropped() async throws {
        try await PeerNode.withDoors([("dev-m", "Middle"), ("dev-r", "Rogue")]) {
            (issuer: Issuer, doors: [PeerNode]) async throws in
            let (victim, rogue) = (doors[0], doors[1])
            // North is enrolled (its credential is public: it is in its certificate), and only North has its key.
            let northKey = P256.Signing.PrivateKey()
            let north = try issuer.credential(
                device: "dev-n", door: "North", peerKey: Array(northKey.publicKey.x963Representation))
            func scan(_ n: Int, sequence: Int64) throws -> PeerItem {
                var item = PeerItem(
                    device: "dev-n", epoch: "epoch-n", sequence: sequence, event: Issuer.event,
                    guest: PeerNode.roster[n].guest.text, kind: .checkIn, door: "North",
                    at: Int64(Date().timeIntervalSince1970 * 1000), arrived: 1, source: "camera")
                item = try item.signed(with: northKey)
                item.author = north
                return item
            }
            var signedByRogue = try scan(10, sequence: 1).fact.signed(with: P256.Signing.PrivateKey())
            signedByRogue.author = north
            var altered = try scan(11, sequence: 2)
            altered.guest = PeerNode.roster[12].guest.text
            var unsigned = try scan(13, sequence: 3)
            unsigned.signature = nil
            // Under North's id, signed with the rogue's own key and carrying the rogue's own (valid) credential.
            let rogueKey = try P256.Signing.PrivateKey(
                rawRepresentation: try rogue.openStore().peerIdentity()!.privateKey)
            var otherAuthor = try scan(14, sequence: 4).fact.signed(with: rogueKey)
            otherAuthor.author = try rogue.openStore().peerCredential(event: Self.event)
            // Of another event, signed by North: refused even where that event's roster is held.
            var elsewhere = PeerNode.roster[19]
            elsewhere.event = EventID(Issuer.event + 1)
            try victim.openStore().upsertGuests([elsewhere])
            var otherEvent = try scan(19, sequence: 8).fact
            otherEvent.event = Issuer.event + 1
            otherEvent = try otherEvent.signed(with: northKey)
            otherEvent.author = north
            let message = PeerMessage.items([
                signedByRogue, altered, unsigned, otherAuthor, otherEvent, try scan(15, sequence: 5),
            ])
            try await rogue.speak(to: victim) { outbound, allocator in
                try await outbound.write(message.encoded(allocator: allocator))
                #expect(try await eventually { try Self.checkIn(of: PeerNode.roster[15], at: victim) != nil })
            }
            let store = try victim.openStore()
            for n in [10, 11, 12, 13, 14] {
                #expect(try Self.checkIn(of: PeerNode.roster[n], at: victim) == nil, "guest \(n)")
            }
            #expect(
                try store.peerItems(event: Self.event, notCoveredBy: PeerVector(), limit: 10).map(\.sequence) == [5])
            #expect(
                try store.peerItems(event: EventID(Issuer.event + 1), notCoveredBy: PeerVector(), limit: 10).isEmpty)
            // Once the server has revoked North, North's scans passed on are dropped too.
            try store.keepRevocations([try issuer.revocation(of: "dev-n")], at: Date())
            try await victim.exchange.pushNotices()
            let afterRevocation = [try scan(16, sequence: 6), try scan(17, sequence: 7)]
            // Then one of the rogue's own (its word, on its own link): read once the message before it was.
            let rogueOwn = PeerItem(
                device: "dev-r", epoch: "epoch-dev-r", sequence: 1, event: Issuer.event,
                guest: PeerNode.roster[18].guest.text, kind: .checkIn, door: "Rogue",
                at: Int64(Date().timeIntervalSince1970 * 1000), arrived: 1, source: "camera")
            try await rogue.speak(to: victim) { outbound, allocator in
                try await outbound.write(PeerMessage.items(afterRevocation).encoded(allocator: allocator))
                try await outbound.write(PeerMessage.items([rogueOwn]).encoded(allocator: allocator))
                #expect(try await eventually { try Self.checkIn(of: PeerNode.roster[18], at: victim) != nil })
            }
            #expect(try Self.checkIn(of: PeerNode.roster[16], at: victim) == nil)
            #expect(try Self.checkIn(of: PeerNode.roster[17], at: victim) == nil)
        }
    }
}
