import GRDB
import KioskCore
import PassFormat
import SignedRecords
import Testing

@testable import KioskStore

@Suite("LAN peers: own items, peers' items, version vectors")
struct PeerItemsTests {
    static let own = SyncStateTests.enrolment
    static let south = "South door"

    /// An enrolled kiosk at `Fixture.door` holding the roster.
    private func enrolledStore(_ db: TestDatabase, offsetMs: Int64? = nil) throws -> SQLiteDoorStore {
        let store = try db.open()
        try store.upsertGuests(Fixture.roster)
        try store.saveEnrolment(Self.own)
        if let offsetMs {
            try store.recordContact(SyncContact(at: Fixture.time(0), clockOffsetMilliseconds: offsetMs))
        }
        return store
    }

    private func ms(_ second: Int) -> Int64 { Fixture.time(second).storeMilliseconds }

    /// A check-in by the South door's kiosk.
    private func peerCheckIn(
        _ guest: RosterGuest, at second: Int, sequence: Int64, device: String = "dev-2", offsetMs: Int64? = nil
    ) -> PeerItem {
        PeerItem(
            device: device, epoch: "epoch-2", sequence: sequence, event: guest.event.rawValue,
            guest: guest.guest.text, kind: .checkIn, door: Self.south, at: ms(second), arrived: guest.partySize,
            source: "camera", clockOffsetMs: offsetMs)
    }

    /// The South door's undo of its check-in `reverts`, as kiosks make it (no party: `arrived` 0).
    private func peerRevert(_ guest: RosterGuest, at second: Int, sequence: Int64, reverts: Int64) -> PeerItem {
        PeerItem(
            device: "dev-2", epoch: "epoch-2", sequence: sequence, event: guest.event.rawValue,
            guest: guest.guest.text, kind: .revert, door: Self.south, at: ms(second), arrived: 0, source: "manual",
            reverts: reverts)
    }

    private func southCheckIn(_ guest: RosterGuest, at second: Int) -> CheckIn {
        CheckIn(
            guest: guest.guest, event: guest.event, door: Self.south, at: Fixture.time(second),
            arrived: guest.partySize, source: .camera)
    }

    private func record(_ store: SQLiteDoorStore, _ guest: RosterGuest, at second: Int) throws {
        let scan = Fixture.checkIn(guest, at: second)
        #expect(try store.record(checkIn: scan, attempt: Fixture.attempt(for: scan)) == .recorded)
    }

    private func heldItems(_ store: SQLiteDoorStore) throws -> [PeerItem] {
        try store.database.read { db in
            try PeerItemRecord.fetchAll(db, sql: "SELECT * FROM peer_items ORDER BY device, epoch, sequence")
                .map(\.item)
        }
    }

    @Test("an own check-in and its undo go into peer_items under the upload's key", arguments: StoreKind.allCases)
    func ownItems(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try enrolledStore(db, offsetMs: -300)
        try record(store, Fixture.anna, at: 10)
        let recent = try #require(try store.recentCheckIns(event: Fixture.event, door: Fixture.door, limit: 5).first)
        let undo = ScanAttempt(
            at: Fixture.time(20), door: Fixture.door, source: .manual, payload: "undo", guest: Fixture.anna.guest,
            verdict: "check_in_undone", reason: "staff")
        #expect(try store.revert(recent, attempt: undo) == .reverted)

        let queued = try store.pendingCheckIns(limit: 10)
        let checkIn = PeerItem(
            device: "dev-1", epoch: "epoch-1", sequence: queued[0].sequence, event: Fixture.event.rawValue,
            guest: Fixture.anna.guest.text, kind: .checkIn, door: Fixture.door, at: ms(10), arrived: 2,
            source: "camera", clockOffsetMs: -300)
        let revert = PeerItem(
            device: "dev-1", epoch: "epoch-1", sequence: queued[1].sequence, event: Fixture.event.rawValue,
            guest: Fixture.anna.guest.text, kind: .revert, door: Fixture.door, at: ms(20), arrived: 0,
            source: "manual", reverts: queued[0].sequence, clockOffsetMs: -300)
        #expect(try heldItems(store) == [checkIn, revert])
        #expect(try store.ownPeerStream() == PeerVector.Stream(device: "dev-1", epoch: "epoch-1"))
        #expect(try store.ownPeerItems(after: 0, limit: 10) == [checkIn, revert])
        #expect(try store.ownPeerItems(after: queued[0].sequence, limit: 10) == [revert])
        #expect(try store.ownPeerItems(after: 0, limit: 1) == [checkIn])
        #expect(try store.ownPeerSequence() == queued[1].sequence)

        // The upload takes them out of the queue; they stay for the peers.
        try store.markSynced(sequences: queued.map(\.sequence))
        #expect(try store.pendingCount() == 0)
        #expect(try store.ownPeerItems(after: 0, limit: 10) == [checkIn, revert])
        #expect(
            try store.peerVector(event: Fixture.event)
                == PeerVector([
                    .init(stream: checkIn.stream, from: queued[0].sequence, through: queued[1].sequence)
                ]))
    }

    @Test("a kiosk that is not enrolled keeps no items", arguments: StoreKind.allCases)
    func notEnrolled(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests(Fixture.roster)
        try record(store, Fixture.anna, at: 10)
        #expect(try heldItems(store).isEmpty)
        #expect(try store.ownPeerStream() == nil)
        #expect(try store.ownPeerItems(after: 0, limit: 10).isEmpty)
        #expect(try store.pendingCount() == 1)
    }

    @Test("a peer's check-in is the guest's check-in here, once", arguments: StoreKind.allCases)
    func peerCheckInApplies(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try enrolledStore(db)
        let item = peerCheckIn(Fixture.anna, at: 10, sequence: 1)
        #expect(try store.applyPeerItems([item], at: Fixture.time(11)) == [item])
        let expected = RosterLookup.checkedIn(Fixture.anna, southCheckIn(Fixture.anna, at: 10))
        #expect(try store.lookUp(guest: Fixture.anna.guest, event: Fixture.event) == expected)
        // Not this door's: not in its undo list, not queued.
        #expect(try store.recentCheckIns(event: Fixture.event, door: Self.south, limit: 5).isEmpty)
        #expect(try store.pendingCount() == 0)
        // A later scan here is refused as already checked in.
        let again = Fixture.checkIn(Fixture.anna, at: 12)
        #expect(
            try store.record(checkIn: again, attempt: Fixture.attempt(for: again))
                == .alreadyRecorded(southCheckIn(Fixture.anna, at: 10)))

        #expect(try store.applyPeerItems([item, item], at: Fixture.time(13)).isEmpty)
        #expect(try store.lookUp(guest: Fixture.anna.guest, event: Fixture.event) == expected)
        #expect(try heldItems(store) == [item])
    }

    @Test("a peer's earlier scan makes this door's admit a double entry", arguments: StoreKind.allCases)
    func earlierPeerScan(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try enrolledStore(db)
        try record(store, Fixture.anna, at: 10)
        let sequence = try #require(try store.pendingCheckIns(limit: 1).first).sequence
        #expect(
            try store.applyPeerItems([peerCheckIn(Fixture.anna, at: 9, sequence: 1)], at: Fixture.time(11)).count == 1)
        #expect(
            try store.lookUp(guest: Fixture.anna.guest, event: Fixture.event)
                == .doubleEntry(Fixture.anna, southCheckIn(Fixture.anna, at: 9)))
        #expect(
            try store.supersededScans() == [
                SupersededScan(
                    sequence: sequence, checkIn: Fixture.checkIn(Fixture.anna, at: 10), winningDoor: Self.south,
                    winningAt: Fixture.time(9))
            ])
        #expect(try store.recentCheckIns(event: Fixture.event, door: Fixture.door, limit: 5).isEmpty)
        #expect(try store.pendingCount() == 1, "the queue is the server's business")
    }

    @Test("a peer's later scan leaves this door's admit as it is", arguments: StoreKind.allCases)
    func laterPeerScan(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try enrolledStore(db)
        try record(store, Fixture.anna, at: 10)
        // Scanned at 8 on the peer's clock, which is 5 s behind the server's: 13 on the server's, after ours.
        let later = peerCheckIn(Fixture.anna, at: 8, sequence: 1, offsetMs: 5000)
        #expect(try store.applyPeerItems([later], at: Fixture.time(14)) == [later])
        #expect(
            try store.lookUp(guest: Fixture.anna.guest, event: Fixture.event)
                == .checkedIn(Fixture.anna, Fixture.checkIn(Fixture.anna, at: 10)))
        #expect(try store.supersededScans().isEmpty)
        #expect(try store.recentCheckIns(event: Fixture.event, door: Fixture.door, limit: 5).count == 1)
    }

    @Test("between peers' scans the earliest is the check-in", arguments: StoreKind.allCases)
    func earliestPeerScan(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try enrolledStore(db)
        let first = peerCheckIn(Fixture.bob, at: 20, sequence: 1, device: "dev-3")
        let earlier = peerCheckIn(Fixture.bob, at: 10, sequence: 1)
        let later = peerCheckIn(Fixture.bob, at: 15, sequence: 1, device: "dev-4")
        #expect(try store.applyPeerItems([first, earlier, later], at: Fixture.time(30)).count == 3)
        #expect(
            try store.lookUp(guest: Fixture.bob.guest, event: Fixture.event)
                == .checkedIn(Fixture.bob, southCheckIn(Fixture.bob, at: 10)))
    }

    @Test("a peer's revert removes its check-in and the pass admits again", arguments: StoreKind.allCases)
    func peerRevert(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try enrolledStore(db)
        let checkIn = peerCheckIn(Fixture.anna, at: 10, sequence: 1)
        let revert = peerRevert(Fixture.anna, at: 20, sequence: 2, reverts: 1)
        #expect(try store.applyPeerItems([checkIn], at: Fixture.time(11)) == [checkIn])
        #expect(try store.applyPeerItems([revert], at: Fixture.time(21)) == [revert])
        #expect(try store.lookUp(guest: Fixture.anna.guest, event: Fixture.event) == .admissible(Fixture.anna))
        try record(store, Fixture.anna, at: 30)
    }

    @Test("a revert that arrives before its check-in keeps it out", arguments: StoreKind.allCases)
    func revertFirst(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try enrolledStore(db)
        let checkIn = peerCheckIn(Fixture.anna, at: 10, sequence: 1)
        let revert = peerRevert(Fixture.anna, at: 20, sequence: 2, reverts: 1)
        #expect(try store.applyPeerItems([revert, checkIn], at: Fixture.time(21)) == [revert, checkIn])
        #expect(try store.lookUp(guest: Fixture.anna.guest, event: Fixture.event) == .admissible(Fixture.anna))
    }

    @Test(
        "when the scan that superseded this door's admit is reverted, the admit is the check-in again",
        arguments: StoreKind.allCases)
    func revertRestoresOwnAdmit(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try enrolledStore(db)
        try record(store, Fixture.anna, at: 10)
        let other = peerCheckIn(Fixture.anna, at: 12, sequence: 1, device: "dev-3")
        let items = [
            peerCheckIn(Fixture.anna, at: 9, sequence: 1), other,
            peerRevert(Fixture.anna, at: 20, sequence: 2, reverts: 1),
        ]
        #expect(try store.applyPeerItems(items, at: Fixture.time(21)) == items)
        #expect(
            try store.lookUp(guest: Fixture.anna.guest, event: Fixture.event)
                == .checkedIn(Fixture.anna, Fixture.checkIn(Fixture.anna, at: 10)))
        #expect(try store.supersededScans().isEmpty)
        #expect(try store.recentCheckIns(event: Fixture.event, door: Fixture.door, limit: 5).count == 1)
    }

    @Test("a peer's revert of a scan that is not the check-in here changes nothing", arguments: StoreKind.allCases)
    func revertOfLaterScan(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try enrolledStore(db)
        try record(store, Fixture.anna, at: 10)
        let items = [
            peerCheckIn(Fixture.anna, at: 12, sequence: 1), peerRevert(Fixture.anna, at: 20, sequence: 2, reverts: 1),
        ]
        #expect(try store.applyPeerItems(items, at: Fixture.time(21)) == items)
        #expect(
            try store.lookUp(guest: Fixture.anna.guest, event: Fixture.event)
                == .checkedIn(Fixture.anna, Fixture.checkIn(Fixture.anna, at: 10)))
    }

    @Test(
        "items of this kiosk's stream, malformed items and other events' items are ignored",
        arguments: StoreKind.allCases)
    func ignoredItems(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try enrolledStore(db)
        var ownStream = peerCheckIn(Fixture.anna, at: 10, sequence: 1, device: "dev-1")
        ownStream.epoch = "epoch-1"
        var noSequence = peerCheckIn(Fixture.anna, at: 10, sequence: 1)
        noSequence.sequence = 0
        var notACode = peerCheckIn(Fixture.anna, at: 10, sequence: 2)
        notACode.guest = "not a guest code"
        var badSource = peerCheckIn(Fixture.anna, at: 10, sequence: 3)
        badSource.source = "telepathy"
        let revertWithoutTarget = PeerItem(
            device: "dev-2", epoch: "epoch-2", sequence: 4, event: Fixture.event.rawValue,
            guest: Fixture.anna.guest.text, kind: .revert, door: Self.south, at: ms(10), arrived: 0,
            source: "manual")
        let otherEvent = peerCheckIn(Fixture.guest(9, "Zed", event: Fixture.otherEvent), at: 10, sequence: 5)
        let items = [ownStream, noSequence, notACode, badSource, revertWithoutTarget, otherEvent]
        #expect(try store.applyPeerItems(items, at: Fixture.time(11)).isEmpty)
        #expect(try heldItems(store).isEmpty)
        #expect(try store.lookUp(guest: Fixture.anna.guest, event: Fixture.event) == .admissible(Fixture.anna))
    }

    @Test("the vector stops at a gap; the items above it are sent", arguments: StoreKind.allCases)
    func vectorWithGap(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try enrolledStore(db)
        let south = [1, 2, 4].map { peerCheckIn(Fixture.roster[$0 - 1], at: $0, sequence: Int64($0)) }
        let east = [7, 8].map { peerCheckIn(Fixture.roster[$0 - 7], at: $0, sequence: Int64($0), device: "dev-3") }
        #expect(try store.applyPeerItems(south + east, at: Fixture.time(20)).count == 5)
        try record(store, Fixture.dan, at: 30)
        let ownSequence = try #require(try store.pendingCheckIns(limit: 1).first).sequence
        let southStream = south[0].stream
        let eastStream = east[0].stream
        let ownStream = PeerVector.Stream(device: "dev-1", epoch: "epoch-1")
        #expect(
            try store.peerVector(event: Fixture.event)
                == PeerVector([
                    .init(stream: ownStream, from: ownSequence, through: ownSequence),
                    .init(stream: southStream, from: 1, through: 2), .init(stream: eastStream, from: 7, through: 8),
                ]))
        #expect(try store.peerVector(event: Fixture.otherEvent) == PeerVector())

        let peer = PeerVector([.init(stream: southStream, through: 2), .init(stream: eastStream, through: 7)])
        let lacking = try store.peerItems(event: Fixture.event, notCoveredBy: peer, limit: 10)
        #expect(lacking.map(\.stream) == [ownStream, southStream, eastStream])
        #expect(lacking.map(\.sequence) == [ownSequence, 4, 8])
        #expect(
            try store.peerItems(event: Fixture.event, notCoveredBy: peer, limit: 2).map(\.sequence) == [ownSequence, 4])
        #expect(try store.peerItems(event: Fixture.event, notCoveredBy: PeerVector(), limit: 10).count == 6)
        // A peer that got East's 8 relayed ahead of its 7 holds from 8: it is sent 7.
        let relayed = PeerVector([
            .init(stream: ownStream, from: ownSequence, through: ownSequence),
            .init(stream: southStream, from: 1, through: 4), .init(stream: eastStream, from: 8, through: 8),
        ])
        #expect(
            try store.peerItems(event: Fixture.event, notCoveredBy: relayed, limit: 10).map(\.sequence) == [7])

        // The missing item arrives: the vector moves past it.
        let third = peerCheckIn(Fixture.emile, at: 3, sequence: 3)
        #expect(try store.applyPeerItems([third], at: Fixture.time(40)) == [third])
        #expect(try store.peerVector(event: Fixture.event).through(southStream) == 4)
        #expect(
            try store.peerItems(event: Fixture.event, notCoveredBy: peer, limit: 10).map(\.sequence)
                == [ownSequence, 3, 4, 8])
    }

    @Test("the peer key pair is kept once", arguments: StoreKind.allCases)
    func identity(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        #expect(try store.peerIdentity() == nil)
        let first = try store.savePeerIdentity(
            privateKey: Array(repeating: 1, count: 32), publicKey: [4] + Array(repeating: 2, count: 64),
            at: Fixture.time(0))
        #expect(first.privateKey == Array(repeating: 1, count: 32))
        let second = try store.savePeerIdentity(
            privateKey: Array(repeating: 3, count: 32), publicKey: [4] + Array(repeating: 5, count: 64),
            at: Fixture.time(1))
        #expect(second.privateKey == first.privateKey && second.publicKey == first.publicKey)
        let kept = try #require(try store.peerIdentity())
        #expect(kept.privateKey == first.privateKey && kept.publicKey == first.publicKey)
    }

    @Test("peer credentials are kept per event, the newest replacing", arguments: StoreKind.allCases)
    func credentials(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        func credential(event: UInt32, notBefore: Int64) -> PeerCredential {
            PeerCredential(
                keyID: 3, tenant: Fixture.tenant.rawValue, event: event, deviceId: "dev-1", door: Fixture.door,
                peerKey: [4] + Array(repeating: 9, count: 64), notBefore: notBefore,
                notAfter: notBefore + PeerCredential.validity, signature: Array(repeating: 7, count: 64))
        }
        let old = credential(event: Fixture.event.rawValue, notBefore: 1000)
        let other = credential(event: Fixture.otherEvent.rawValue, notBefore: 1000)
        try store.savePeerCredentials([old, other], at: Fixture.time(0))
        #expect(try store.peerCredential(event: Fixture.event) == old)
        let new = credential(event: Fixture.event.rawValue, notBefore: 2000)
        try store.savePeerCredentials([new], at: Fixture.time(1))
        #expect(try store.peerCredential(event: Fixture.event) == new)
        #expect(try store.peerCredential(event: Fixture.otherEvent) == other)
        #expect(try store.peerCredential(event: EventID(99)) == nil)
    }

    @Test("sightings are kept per device, listed by door", arguments: StoreKind.allCases)
    func sightings(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        let west = PeerSighting(device: "dev-3", door: "West", address: "10.0.0.3", lastHeard: 1000, linked: false)
        let east = PeerSighting(device: "dev-2", door: "East", address: "10.0.0.2", lastHeard: 1000, linked: true)
        try store.recordPeerSighting(west)
        try store.recordPeerSighting(east)
        #expect(try store.peerSightings() == [east, west])
        let heard = PeerSighting(device: "dev-3", door: "West", address: "10.0.0.9", lastHeard: 3000, linked: true)
        try store.recordPeerSighting(heard)
        #expect(try store.peerSightings() == [east, heard])
    }

    @Test(
        "a peer's item keeps its author's signature; authors' newest credentials are kept",
        arguments: StoreKind.allCases)
    func signaturesAndAuthors(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try enrolledStore(db)
        var signed = peerCheckIn(Fixture.anna, at: 10, sequence: 1)
        signed.signature = Array(repeating: 5, count: 64)
        let unsigned = peerCheckIn(Fixture.bob, at: 11, sequence: 2)
        #expect(try store.unheldPeerItems([signed, unsigned]) == [signed, unsigned])
        #expect(try store.applyPeerItems([signed, unsigned], at: Fixture.time(12)) == [signed, unsigned])
        #expect(try heldItems(store) == [signed, unsigned])
        #expect(
            try store.unheldPeerItems([signed, unsigned, peerCheckIn(Fixture.anna, at: 10, sequence: 3)]).map(
                \.sequence) == [3])
        // A signature of another length is not an item's: refused.
        var malformed = peerCheckIn(Fixture.anna, at: 10, sequence: 4)
        malformed.signature = [1, 2, 3]
        #expect(try store.applyPeerItems([malformed], at: Fixture.time(13)).isEmpty)

        func credential(_ device: String, notBefore: Int64, event: EventID = Fixture.event) -> PeerCredential {
            PeerCredential(
                keyID: 3, tenant: Fixture.tenant.rawValue, event: event.rawValue, deviceId: device,
                door: "Door \(device)",
                peerKey: [4] + Array(repeating: 9, count: 64), notBefore: notBefore,
                notAfter: notBefore + PeerCredential.validity, signature: Array(repeating: 7, count: 64))
        }
        let south = credential("dev-2", notBefore: 2000)
        try store.keepPeerAuthors([south, credential("dev-3", notBefore: 1000)], at: Fixture.time(14))
        try store.keepPeerAuthors(
            [
                credential("dev-2", notBefore: 1500), credential("dev-3", notBefore: 3000),
                credential("dev-4", notBefore: 1000, event: Fixture.otherEvent),
            ], at: Fixture.time(15))
        #expect(try store.peerAuthors(event: Fixture.event) == [south, credential("dev-3", notBefore: 3000)])
        #expect(try store.peerAuthors(event: Fixture.otherEvent).map(\.deviceId) == ["dev-4"])
    }
}
