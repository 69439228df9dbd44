import CheckinCore
import Foundation
import KioskCore
import PassFormat
import PostgresTestSupport
import Testing

/// The repository contract, run on every implementation (`RepositoryFactory.all`).
@Suite("CheckinRepository", .dropsTestDatabases)
struct RepositoryTests {
    @Test(arguments: RepositoryFactory.all)
    func firstDownloadInPagesResumesFromAPageCursor(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, guests) = try await h.event(guests: 1_200)
        let first = try await h.repository.rosterPage(event: event.id, page: nil, limit: 500)
        #expect(first.guests.count == 500)
        #expect(first.total == 1_200)
        // Interrupted after page 1: the kiosk resumes from the page cursor it stored with page 1.
        let second = try await h.repository.rosterPage(event: event.id, page: first.nextPage, limit: 500)
        let third = try await h.repository.rosterPage(event: event.id, page: second.nextPage, limit: 500)
        #expect(second.guests.count == 500)
        #expect(third.guests.count == 200)
        #expect(third.isComplete)
        #expect(third.changeCursor == first.changeCursor)
        let ids = (first.guests + second.guests + third.guests).map(\.id.text)
        #expect(ids == ids.sorted())
        #expect(Set(ids) == Set(guests.map(\.id.text)))
        let again = try await h.repository.rosterPage(event: event.id, page: first.nextPage, limit: 500)
        #expect(again.guests == second.guests)
    }

    /// The guest search ignores accents both ways, and case, on both stores: what an organizer types without
    /// accents finds the names that have them, typed accents find names stored without them.
    @Test(arguments: RepositoryFactory.all)
    func theGuestSearchIgnoresAccentsAndCase(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, _) = try await h.event(guests: 0)
        let names = ["José Núñez", "François Lévêque", "Jürgen Müller", "Zoë Ørsted", "Łukasz Dvořák", "Zoe Plain"]
        _ = try await h.repository.addGuests(names.map { NewGuest(name: $0) }, event: event.id, at: Date())
        func found(_ text: String) async throws -> [String] {
            try await h.repository.searchGuests(event: event.id, text: text, limit: 10).map(\.name).sorted()
        }
        #expect(try await found("nunez") == ["José Núñez"])
        #expect(try await found("NUNEZ") == ["José Núñez"])
        #expect(try await found("francois") == ["François Lévêque"])
        #expect(try await found("leveque") == ["François Lévêque"])
        #expect(try await found("muller") == ["Jürgen Müller"])
        #expect(try await found("zoe") == ["Zoe Plain", "Zoë Ørsted"])
        #expect(try await found("zoë") == ["Zoe Plain", "Zoë Ørsted"])
        #expect(try await found("orsted") == ["Zoë Ørsted"])
        #expect(try await found("lukasz dvorak") == ["Łukasz Dvořák"])
        #expect(try await found("Núñez") == ["José Núñez"])
        #expect(try await found("nunes").isEmpty)
    }

    /// A code is searched from one group of it (4 characters) on: a shorter text is the start of a name, and
    /// "d" finds the guests with a d in their name, not every guest whose code starts with D (seen as a flake of
    /// the list test below, whose random codes sometimes did).
    @Test(arguments: RepositoryFactory.all)
    func aShortTextSearchesNamesNotCodes(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, _) = try await h.event(guests: 0)
        let code = try #require(GuestID(text: "DDDDEEEEFFFFGGGG"))
        _ = try await h.repository.addGuests(
            [NewGuest(id: code, name: "Ann"), NewGuest(name: "Dora")], event: event.id, at: h.clock.now())
        func found(_ text: String) async throws -> [String] {
            let listed = try await h.repository.guestList(event: event.id, GuestQuery(text: text), offset: 0, limit: 10)
            let searched = try await h.repository.searchGuests(event: event.id, text: text, limit: 10)
            #expect(listed.guests.map(\.name) == searched.map(\.name), "\(text)")
            return searched.map(\.name)
        }
        #expect(try await found("d") == ["Dora"])
        #expect(try await found("ddd") == [])
        #expect(try await found("dddd") == ["Ann"])
        #expect(try await found("DDDD-EEEE") == ["Ann"])
        #expect(try await found("dddd-eeee-ffff-gggg") == ["Ann"])
    }

    /// The organizer's lists are ordered, filtered, counted and paged by the database, the same on every store.
    @Test(arguments: RepositoryFactory.all)
    func guestListsAreOrderedFilteredCountedAndPaged(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, _) = try await h.event(guests: 0)
        let added = try await h.repository.addGuests(
            ["b", "A", "c", "D", "e"].enumerated().map { NewGuest(name: $1, partySize: $0 + 1) }, event: event.id,
            at: h.clock.now())
        let id = Dictionary(uniqueKeysWithValues: added.map { ($0.name, $0.id.text) })
        _ = try await h.admin.checkInFromPage(id["c"]!, event: event.id, nonce: "NONCEFORTHEFIRST1")
        h.clock.advance(by: 60)
        _ = try await h.admin.checkInFromPage(id["A"]!, event: event.id, nonce: "NONCEFORTHESECOND")
        _ = try await h.repository.cancelGuest(GuestID(text: id["e"]!)!, event: event.id, at: h.clock.now())
        func list(_ query: GuestQuery, offset: Int = 0, limit: Int = 10) async throws -> ([String], Int, Int) {
            let page = try await h.repository.guestList(event: event.id, query, offset: offset, limit: limit)
            return (page.guests.map(\.name), page.total, page.people)
        }
        #expect(try await list(GuestQuery()) == (["A", "b", "c", "D", "e"], 5, 15))
        #expect(try await list(GuestQuery(order: .status)).0 == ["b", "D", "A", "c", "e"])
        #expect(try await list(GuestQuery(order: .arrival)).0 == ["A", "c", "b", "D", "e"], "the latest arrival first")
        #expect(try await list(GuestQuery(), offset: 2, limit: 2) == (["c", "D"], 5, 15))
        #expect(try await list(GuestQuery(), offset: 10, limit: 2) == ([], 5, 15), "past the end: the count stays")
        #expect(try await list(GuestQuery(notArrivedOnly: true)) == (["b", "D"], 2, 1 + 4))
        #expect(try await list(GuestQuery(text: "d", notArrivedOnly: true)) == (["D"], 1, 4))
        #expect(try await list(GuestQuery(text: "zzz")) == ([], 0, 0))
    }

    @Test(arguments: RepositoryFactory.all)
    func deltaCarriesTombstonesWalkInsAndCheckIns(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, guests) = try await h.event(guests: 10)
        let cursor = try await h.repository.rosterPage(event: event.id, page: nil, limit: 500).changeCursor
        let none = try await h.repository.rosterChanges(event: event.id, since: cursor, limit: 500)
        #expect(none.guests.isEmpty)
        #expect(none.isComplete)

        let cancelled = try await h.repository.cancelGuest(guests[3].id, event: event.id, at: h.clock.now())
        let walkIn = try await h.repository.addGuests([NewGuest(name: "Walk In")], event: event.id, at: h.clock.now())[
            0]
        let delta = try await h.repository.rosterChanges(event: event.id, since: cursor, limit: 500)
        #expect(delta.guests.map(\.id) == [guests[3].id, walkIn.id])
        #expect(delta.guests[0].status == .cancelled)
        #expect(delta.guests[0].version == cancelled.version)
        #expect(delta.guests[0].version > guests[3].version)

        // A check-in changes the row kiosks see: it comes in the next delta with its door and time.
        let device = try await h.enrolDirectly(event: event)
        let scan = Scan(
            key: ScanKey(deviceId: device.id, epoch: device.queueEpoch, sequence: 1), guest: guests[5].id,
            kind: .checkIn, deviceTime: h.clock.now(), clockOffsetMs: 0, arrived: 1, door: "North", source: "camera")
        _ = try await h.repository.apply(scan, event: event.id, device: device, receivedAt: h.clock.now())
        let next = try await h.repository.rosterChanges(event: event.id, since: delta.changeCursor, limit: 500)
        #expect(next.guests.map(\.id) == [guests[5].id])
        #expect(next.guests[0].checkIn?.door == "North")

        // Deltas page too, and the pages' cursors never skip a row.
        let paged1 = try await h.repository.rosterChanges(event: event.id, since: cursor, limit: 2)
        #expect(paged1.guests.count == 2)
        #expect(!paged1.isComplete)
        let paged2 = try await h.repository.rosterChanges(event: event.id, since: paged1.nextPage!, limit: 2)
        #expect(paged2.guests.map(\.id) == [guests[5].id])
        #expect(paged2.isComplete)
    }

    @Test(arguments: RepositoryFactory.all)
    func aKeyIsAppliedOnceAndAnsweredAlike(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, guests) = try await h.event()
        let device = try await h.enrolDirectly(event: event)
        let scan = Scan(
            key: ScanKey(deviceId: device.id, epoch: device.queueEpoch, sequence: 7), guest: guests[0].id,
            kind: .checkIn, deviceTime: h.clock.now(), clockOffsetMs: 0, arrived: 2, door: "North", source: "manual")
        let first = try await h.repository.apply(scan, event: event.id, device: device, receivedAt: h.clock.now())
        h.clock.advance(by: 3600)
        let repeated = try await h.repository.apply(scan, event: event.id, device: device, receivedAt: h.clock.now())
        #expect(first == repeated)
        #expect(first.kind == .applied)
        #expect(try await h.repository.checkIns(event: event.id).count == 1)
        #expect(try await h.repository.checkInEvents(event: event.id).count == 1)
    }

    @Test(arguments: RepositoryFactory.all)
    func enrolmentCodesAreOneUse(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event()
        let code = EnrolmentCode(
            codeHash: "h1", tenant: tenant.id, event: event.id, createdAt: h.clock.now(),
            expiresAt: h.clock.now().addingTimeInterval(60))
        try await h.repository.createEnrolmentCode(code)
        let enrolling = Enrolling(
            codeHash: "h1", newDeviceId: "dev_1", tokenHash: "t1", queueEpoch: "q1", door: "N", kioskVersion: "1.0.0")
        let device = try await h.repository.redeemEnrolment(enrolling, at: h.clock.now())
        #expect(device.tenant == tenant.id)
        await #expect(throws: RepositoryError.codeUsed) {
            try await h.repository.redeemEnrolment(enrolling, at: h.clock.now())
        }
        await #expect(throws: RepositoryError.notFound("enrolment code")) {
            try await h.repository.redeemEnrolment(
                Enrolling(
                    codeHash: "nope", newDeviceId: "d", tokenHash: "t", queueEpoch: "q",
                    door: "N", kioskVersion: "1"), at: h.clock.now())
        }
        #expect(try await h.repository.device(tokenHash: "t1")?.id == "dev_1")
    }

    /// A kiosk enrolling again sends its current token: the code renews that device (same id, new token and
    /// queue epoch), on both stores; a token of another tenant's device or of a revoked one makes a new device.
    @Test(arguments: RepositoryFactory.all)
    func enrollingAgainWithItsTokenRenewsTheDevice(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event()
        let (otherTenant, otherEvent, _) = try await h.event(tenantName: "Other")
        func redeem(_ code: String, tenant: Tenant, event: Event, new: String, token: String, replacing: String?)
            async throws -> Device
        {
            try await h.repository.createEnrolmentCode(
                EnrolmentCode(
                    codeHash: code, tenant: tenant.id, event: event.id, createdAt: h.clock.now(),
                    expiresAt: h.clock.now().addingTimeInterval(60)))
            return try await h.repository.redeemEnrolment(
                Enrolling(
                    codeHash: code, newDeviceId: new, tokenHash: token, queueEpoch: "q-" + token, door: "S",
                    kioskVersion: "1.0.0", replacesTokenHash: replacing), at: h.clock.now())
        }
        let first = try await redeem("c1", tenant: tenant, event: event, new: "dev_a", token: "t1", replacing: nil)
        let again = try await redeem("c2", tenant: tenant, event: event, new: "dev_b", token: "t2", replacing: "t1")
        #expect(again.id == first.id && again.queueEpoch == "q-t2")
        #expect(try await h.repository.device(tokenHash: "t1") == nil, "the old token stops working")
        #expect(try await h.repository.devices(tenant: tenant.id).map(\.id) == [first.id])
        let foreign = try await redeem(
            "c3", tenant: otherTenant, event: otherEvent, new: "dev_c", token: "t3", replacing: "t2")
        #expect(foreign.id == "dev_c", "another tenant's token renews nothing")
        try await h.repository.revokeDevice(first.id, tenant: tenant.id, at: h.clock.now())
        let afterRevoke = try await redeem(
            "c4", tenant: tenant, event: event, new: "dev_d", token: "t4", replacing: "t2")
        #expect(afterRevoke.id == "dev_d", "a revoked device is not brought back by its own token")
    }

    @Test(arguments: RepositoryFactory.all)
    func importIsAllOrNothing(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, guests) = try await h.event(guests: 2)
        await #expect(throws: RepositoryError.duplicateGuest(guests[1].id.text)) {
            try await h.repository.addGuests(
                [NewGuest(name: "New"), NewGuest(id: guests[1].id, name: "Dup")],
                event: event.id, at: h.clock.now())
        }
        #expect(try await h.repository.rosterPage(event: event.id, page: nil, limit: 500).total == 2)
    }
}

extension Harness {
    /// A device of the event's tenant, enrolled straight in the repository.
    func enrolDirectly(event: Event, door: String = "North") async throws -> Device {
        let hash = "code-\(UUID().uuidString)"
        try await repository.createEnrolmentCode(
            EnrolmentCode(
                codeHash: hash, tenant: event.tenant, event: event.id, createdAt: clock.now(),
                expiresAt: clock.now().addingTimeInterval(3600)))
        return try await repository.redeemEnrolment(
            Enrolling(
                codeHash: hash, newDeviceId: "dev_\(UUID().uuidString.prefix(8).lowercased())",
                tokenHash: UUID().uuidString,
                queueEpoch: "epoch1", door: door, kioskVersion: "1.0.0"), at: clock.now())
    }
}

/// More of the contract: concurrent writers and a reader of deltas, re-enrolment, the event's end.
@Suite("CheckinRepository, more", .dropsTestDatabases)
struct RepositoryMoreTests {
    /// Several uploads at once while a kiosk keeps fetching deltas: every check-in reaches the reader (the
    /// cursor never skips a change that commits late; on PostgreSQL this is the transaction-horizon rule).
    @Test(arguments: RepositoryFactory.all)
    func deltasNeverSkipAChangeWhileWritersRunAtOnce(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, guests) = try await h.event(guests: 160)
        var devices: [Device] = []
        for door in ["A", "B", "C", "D"] { devices.append(try await h.enrolDirectly(event: event, door: door)) }
        let start = try await h.repository.rosterPage(event: event.id, page: nil, limit: 1).changeCursor
        let repository = h.repository
        let now = h.clock.now()
        let seen = try await withThrowingTaskGroup(of: Set<String>.self) { group in
            for (d, device) in devices.enumerated() {
                let mine = Array(guests[(d * 40)..<((d + 1) * 40)])
                group.addTask {
                    for (i, guest) in mine.enumerated() {
                        let scan = Scan(
                            key: ScanKey(deviceId: device.id, epoch: device.queueEpoch, sequence: Int64(i + 1)),
                            guest: guest.id, kind: .checkIn, deviceTime: now, clockOffsetMs: 0, arrived: 1,
                            door: device.door, source: "camera")
                        _ = try await repository.apply(scan, event: event.id, device: device, receivedAt: now)
                    }
                    return []
                }
            }
            group.addTask {
                var cursor = start
                var checkedIn = Set<String>()
                var rounds = 0
                while checkedIn.count < 160 && rounds < 10_000 {
                    let page = try await repository.rosterChanges(event: event.id, since: cursor, limit: 50)
                    for guest in page.guests where guest.checkIn != nil { checkedIn.insert(guest.id.text) }
                    cursor = page.changeCursor
                    rounds += 1
                    if page.guests.isEmpty { try await Task.sleep(for: .milliseconds(2)) }
                }
                return checkedIn
            }
            var all = Set<String>()
            for try await part in group { all.formUnion(part) }
            return all
        }
        #expect(seen.count == 160)
        #expect(try await h.repository.checkIns(event: event.id).count == 160)
    }

    @Test(arguments: RepositoryFactory.all)
    func reEnrolmentKeepsTheDeviceAndRevokesItsOldToken(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event()
        let device = try await h.enrolDirectly(event: event)
        let listed = try #require(try await h.repository.devices(tenant: tenant.id).first?.id)
        #expect(listed == device.id)
        try await h.repository.createEnrolmentCode(
            EnrolmentCode(
                codeHash: "again", tenant: tenant.id, event: event.id, replacesDevice: device.id,
                createdAt: h.clock.now(),
                expiresAt: h.clock.now().addingTimeInterval(60)))
        let again = try await h.repository.redeemEnrolment(
            Enrolling(
                codeHash: "again", newDeviceId: "dev_unused", tokenHash: "new-hash", queueEpoch: "epoch2",
                door: "North",
                kioskVersion: "1.1.0"), at: h.clock.now())
        #expect(again.id == device.id)
        #expect(again.queueEpoch == "epoch2")
        #expect(try await h.repository.device(tokenHash: "new-hash")?.id == device.id)
        #expect(try await h.repository.devices(tenant: tenant.id).count == 1)
        // Another tenant cannot make a code for this device.
        let (other, otherEvent, _) = try await h.event(tenantName: "Other")
        await #expect(throws: RepositoryError.self) {
            try await h.repository.createEnrolmentCode(
                EnrolmentCode(
                    codeHash: "steal", tenant: other.id, event: otherEvent.id, replacesDevice: device.id,
                    createdAt: h.clock.now(), expiresAt: h.clock.now().addingTimeInterval(60)))
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func aCheckInAfterTheEventClosesIsRejected(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, guests) = try await h.event()
        let device = try await h.enrolDirectly(event: event)
        func scan(_ seq: Int64, _ at: Date) -> Scan {
            Scan(
                key: ScanKey(deviceId: device.id, epoch: device.queueEpoch, sequence: seq), guest: guests[0].id,
                kind: .checkIn, deviceTime: at, clockOffsetMs: 0, arrived: 1, door: "North", source: "camera")
        }
        let late = try await h.repository.apply(
            scan(1, event.closesAt.addingTimeInterval(1)), event: event.id, device: device,
            receivedAt: h.clock.now())
        #expect(late == ScanOutcome(kind: .rejected, reason: "event_over"))
        let inGrace = try await h.repository.apply(
            scan(2, event.endsAt.addingTimeInterval(60)), event: event.id, device: device,
            receivedAt: h.clock.now())
        #expect(inGrace.kind == .applied)
        #expect(try await h.repository.checkInEvents(event: event.id).map(\.outcome) == [.rejected, .applied])
    }
}
