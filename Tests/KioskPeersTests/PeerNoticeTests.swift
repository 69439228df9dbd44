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

/// The server's word between doors (issue 23): a roster change one door fetched (a cancellation, a walk-in)
/// reaches doors that cannot reach the server, even through a third door, because the server signed it; a row a
/// door altered or signed itself is dropped; a device the server revoked gets no link, and the revocation travels
/// the same way.
@Suite("The server's signed notices between doors")
struct PeerNoticeTests {
    static let event = EventID(Issuer.event)

    /// Three doors, North–Middle and Middle–South linked (North and South do not see each other).
    static func chain(_ issuer: Issuer) async throws -> (PeerNode, PeerNode, PeerNode) {
        let north = try await PeerNode(device: "dev-a", door: "North", issuer: issuer)
        let middle = try await PeerNode(device: "dev-b", door: "Middle", issuer: issuer)
        let south = try await PeerNode(device: "dev-c", door: "South", issuer: issuer)
        north.dial(middle)
        middle.dial(south)
        #expect(try await eventually { await middle.exchange.linkedDevices == ["dev-a", "dev-c"] })
        return (north, middle, south)
    }

    @Test("a cancellation and a walk-in one door fetched reach a door that sees it only through a third")
    func rosterChangesTravelThroughAThirdDoor() async throws {
        try await withTaskExecutorPreference(ThreadExecutor.testServers) {
            let issuer = try Issuer()
            let (north, middle, south) = try await Self.chain(issuer)
            defer {
                Task {
                    for node in [north, middle, south] { await node.stop() }
                }
            }
            var cancelled = PeerNode.roster[5]
            cancelled.status = .cancelled
            let walkIn = RosterGuest(
                guest: GuestID(bytes: [UInt8](repeating: 99, count: GuestID.byteCount))!,
                tenant: TenantID(Issuer.tenant), event: Self.event, name: "Late Comer", partySize: 2, notes: "VIP")
            #expect(try south.openStore().lookUp(guest: walkIn.guest, event: Self.event) == .notFound)
            // North's sync applied a delta and kept its signed rows, as RosterDownloader does.
            try north.openStore().keepGuestNotices(
                [try issuer.notice(cancelled, version: 10), try issuer.notice(walkIn, version: 11)], at: Date())
            #expect(
                try await eventually {
                    let store = try south.openStore()
                    guard case .cancelled = try store.lookUp(guest: cancelled.guest, event: Self.event) else {
                        return false
                    }
                    return try store.lookUp(guest: walkIn.guest, event: Self.event) == .admissible(walkIn)
                })
            #expect(await south.exchange.linkedDevices == ["dev-b"])
            guard case .cancelled = try middle.openStore().lookUp(guest: cancelled.guest, event: Self.event) else {
                Issue.record("Middle did not take the cancellation")
                return
            }
            // An older row passed on later (a door that fetched before the change) changes nothing.
            try middle.openStore().applyGuestNotices([try issuer.notice(PeerNode.roster[5], version: 9)], at: Date())
            guard case .cancelled = try middle.openStore().lookUp(guest: cancelled.guest, event: Self.event) else {
                Issue.record("an older row undid the cancellation")
                return
            }
        }
    }

    @Test("a guest row that a door altered or signed itself is dropped; the server's is taken")
    func forgedRowsAreDropped() async throws {
        try await PeerNode.withDoors([("dev-m", "North"), ("dev-r", "Rogue")]) {
            (issuer: Issuer, doors: [PeerNode]) async throws in
            let (victim, rogue) = (doors[0], doors[1])
            func cancelling(_ guest: RosterGuest) -> RosterGuest {
                var cancelled = guest
                cancelled.status = .cancelled
                return cancelled
            }
            let own = try Issuer(keyID: 1000)  // the rogue's own key, with the server's key id
            let selfSigned = try own.notice(cancelling(PeerNode.roster[6]), version: 5)
            var altered = try issuer.notice(PeerNode.roster[7], version: 5)
            altered.status = RosterGuest.Status.cancelled.rawValue
            let genuine = try issuer.notice(cancelling(PeerNode.roster[8]), version: 5)
            let message = PeerMessage.guests([selfSigned, altered, genuine])
            try await rogue.speak(to: victim) { outbound, allocator in
                try await outbound.write(message.encoded(allocator: allocator))
                #expect(
                    try await eventually {
                        guard
                            case .cancelled = try victim.openStore().lookUp(
                                guest: PeerNode.roster[8].guest, event: Self.event)
                        else { return false }
                        return true
                    })
            }
            let store = try victim.openStore()
            #expect(
                try store.lookUp(guest: PeerNode.roster[6].guest, event: Self.event) == .admissible(PeerNode.roster[6]))
            #expect(
                try store.lookUp(guest: PeerNode.roster[7].guest, event: Self.event) == .admissible(PeerNode.roster[7]))
            #expect(try store.guestNotices(event: Self.event, after: 0, limit: 10).map(\.notice) == [genuine])
        }
    }

    @Test("a door the server revoked loses its link and gets no new one, and the revocation is passed on")
    func aRevokedDoorIsRefused() async throws {
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
            north.dial(south)
            #expect(try await eventually { await north.exchange.linkedDevices == ["dev-b", "dev-c"] })
            // Middle's heartbeat brought South's revocation; it passes it on to North, which closes South's link.
            try middle.openStore().keepRevocations([try issuer.revocation(of: "dev-c")], at: Date())
            #expect(try await eventually { await north.exchange.linkedDevices == ["dev-b"] })
            #expect(try north.openStore().revocations(event: Self.event).map(\.notice.deviceId) == ["dev-c"])
            // South tries again: the handshake is refused, so the attempt ends without a link.
            #expect(await allEnd([south.dial(north)]), "a revoked door was linked")
            #expect(await north.exchange.linkedDevices == ["dev-b"])
            // A revocation whose signature a door altered revokes nothing; a genuine one beside it is taken.
            var forged = try issuer.revocation(of: "dev-b")
            forged.signature[0] ^= 1
            let message = PeerMessage.revocations([forged, try issuer.revocation(of: "dev-x")])
            try await north.speak(to: middle) { outbound, allocator in
                try await outbound.write(message.encoded(allocator: allocator))
                #expect(
                    try await eventually {
                        try middle.openStore().revocations(event: Self.event).contains { $0.notice.deviceId == "dev-x" }
                    })
            }
            #expect(
                try middle.openStore().revocations(event: Self.event).map(\.notice.deviceId).sorted()
                    == ["dev-c", "dev-x"])
        }
    }

    @Test("more revocations than a frame holds are passed on at the catch-up, in frames")
    func manyRevocationsCatchUp() async throws {
        try await PeerNode.withDoors([("dev-a", "North"), ("dev-b", "South")]) {
            (issuer: Issuer, doors: [PeerNode]) async throws in
            let (north, south) = (doors[0], doors[1])
            let count = PeerMessage.noticesPerFrame * 2 + 5
            try north.openStore().keepRevocations(
                try (0..<count).map { try issuer.revocation(of: "dev-gone-\($0)") }, at: Date())
            north.dial(south)
            #expect(try await eventually { try south.openStore().revocations(event: Self.event).count == count })
            #expect(await north.exchange.linkedDevices == ["dev-b"])
        }
    }
}
