import GRDB
import KioskCore
import PassFormat
import SignedRecords
import Testing

@testable import KioskStore

/// The server's signed rows a peer passed on (docs/SYNC.md, "As built on the LAN"): a newer one becomes the
/// guest's roster row (a cancellation, a walk-in, an active guest again), an older one changes nothing, the
/// guest's check-in is left as it is, and nothing comes back into an event whose personal data was purged.
@Suite("LAN peers: the server's guest rows and revocations, kept and applied")
struct PeerNoticeStoreTests {
    /// A row as signed (the signature is the peers' check, not the store's: any 64 bytes do here).
    static func notice(_ guest: RosterGuest, version: Int64) -> GuestNotice {
        GuestNotice(keyID: 1, guest: guest, version: version, signature: [UInt8](repeating: 7, count: 64))
    }

    static func cancelled(_ guest: RosterGuest) -> RosterGuest {
        var cancelled = guest
        cancelled.status = .cancelled
        return cancelled
    }

    @Test(
        "a newer row is the guest's roster row; an older one is kept for nobody; the check-in stays",
        arguments: StoreKind.allCases)
    func newerRowsApply(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests(Fixture.roster)
        let guest = Fixture.roster[0]
        let admitted = Fixture.roster[1]
        let scan = Fixture.checkIn(admitted, at: 5)
        #expect(try store.record(checkIn: scan, attempt: Fixture.attempt(for: scan)) == .recorded)
        // A cancellation of one guest, a walk-in, and an edit of the admitted guest's name.
        let walkIn = RosterGuest(
            guest: GuestID(bytes: [UInt8](repeating: 42, count: GuestID.byteCount))!, tenant: Fixture.tenant,
            event: Fixture.event, name: "Late Comer", partySize: 3)
        var renamed = admitted
        renamed.name = "Renamed Guest"
        let fresh = try store.applyGuestNotices(
            [
                Self.notice(Self.cancelled(guest), version: 5), Self.notice(walkIn, version: 6),
                Self.notice(renamed, version: 7),
            ], at: Fixture.time(10))
        #expect(fresh.count == 3)
        guard case .cancelled = try store.lookUp(guest: guest.guest, event: Fixture.event) else {
            Issue.record("the cancellation was not applied")
            return
        }
        #expect(try store.lookUp(guest: walkIn.guest, event: Fixture.event) == .admissible(walkIn))
        guard case .checkedIn(let held, let checkIn) = try store.lookUp(guest: admitted.guest, event: Fixture.event)
        else {
            Issue.record("the row without a check-in removed the guest's check-in")
            return
        }
        #expect(held.name == "Renamed Guest" && checkIn.door == scan.door)
        // The same rows again (from another door): nothing new. An older row: kept neither as the row nor to pass on.
        #expect(
            try store.applyGuestNotices([Self.notice(Self.cancelled(guest), version: 5)], at: Fixture.time(11))
                .isEmpty)
        #expect(try store.applyGuestNotices([Self.notice(guest, version: 4)], at: Fixture.time(11)).isEmpty)
        guard case .cancelled = try store.lookUp(guest: guest.guest, event: Fixture.event) else {
            Issue.record("an older row undid the cancellation")
            return
        }
        // Active again on the server (a newer row): the tombstone goes.
        #expect(try store.applyGuestNotices([Self.notice(guest, version: 8)], at: Fixture.time(12)).count == 1)
        #expect(try store.lookUp(guest: guest.guest, event: Fixture.event) == .admissible(guest))
        // What is worth a signature check: only rows newer than the one kept.
        #expect(
            try store.unheldGuestNotices([Self.notice(guest, version: 8), Self.notice(walkIn, version: 6)]).isEmpty)
        #expect(try store.unheldGuestNotices([Self.notice(guest, version: 9)]).map(\.version) == [9])
        #expect(try store.peerNoticeMarks(event: Fixture.event).guests > 0)
        // One row kept per guest, the newest, in the order they came.
        let kept = try store.guestNotices(event: Fixture.event, after: 0, limit: 10)
        #expect(kept.map(\.notice.version) == [6, 7, 8])
        #expect(try store.guestNotices(event: Fixture.event, after: kept[1].id, limit: 10).map(\.notice.version) == [8])
    }

    @Test(
        "rows of an event whose personal data was purged, or whose roster is not here, are not taken",
        arguments: StoreKind.allCases)
    func purgedOrUnknownEvents(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests(Fixture.roster)
        var renamed = Fixture.roster[2]
        renamed.name = "Someone"
        try store.keepGuestNotices([Self.notice(renamed, version: 3)], at: Fixture.time(1))
        try store.recordPersonalDataPurgeDates([Fixture.event: Fixture.time(5)])
        try store.purgePersonalData(dueAt: Fixture.time(5))
        // The kept rows carried names: they went with the purge.
        #expect(try store.guestNotices(event: Fixture.event, after: 0, limit: 10).isEmpty)
        renamed.name = "Someone Else"
        #expect(try store.applyGuestNotices([Self.notice(renamed, version: 4)], at: Fixture.time(6)).isEmpty)
        guard case .admissible(let held) = try store.lookUp(guest: renamed.guest, event: Fixture.event) else {
            Issue.record("the guest is gone")
            return
        }
        #expect(held.name == "")
        var elsewhere = Fixture.roster[3]
        elsewhere.event = EventID(Fixture.event.rawValue + 1)
        #expect(try store.applyGuestNotices([Self.notice(elsewhere, version: 1)], at: Fixture.time(6)).isEmpty)
    }

    @Test(
        "a later revocation of a device replaces an earlier one and comes again in the order",
        arguments: StoreKind.allCases)
    func revocations(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        func revocation(_ device: String, at: Int64) -> DeviceRevocation {
            DeviceRevocation(
                keyID: 1, tenant: Fixture.tenant.rawValue, event: Fixture.event.rawValue, deviceId: device,
                revokedAt: at, signature: [UInt8](repeating: 1, count: 64))
        }
        #expect(
            try store.keepRevocations(
                [revocation("dev-2", at: 100), revocation("dev-3", at: 100)], at: Fixture.time(0)
            ).count == 2)
        #expect(try store.keepRevocations([revocation("dev-2", at: 90)], at: Fixture.time(1)).isEmpty)
        let first = try store.revocations(event: Fixture.event)
        #expect(try store.keepRevocations([revocation("dev-2", at: 200)], at: Fixture.time(2)).count == 1)
        let after = try store.revocations(event: Fixture.event, after: first.last!.id)
        #expect(after.map(\.notice.deviceId) == ["dev-2"] && after[0].notice.revokedAt == 200)
        #expect(try store.revocations(event: Fixture.event).count == 2)
    }
}
