import GRDB
import KioskCore
import Testing

@testable import KioskStore

@Suite("Looking guests up")
struct LookupTests {
    @Test("an unknown guest, or one of another event, is not found", arguments: StoreKind.allCases)
    func notFound(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests([Fixture.anna])

        #expect(try store.lookUp(guest: Fixture.bob.guest, event: Fixture.event) == .notFound)
        #expect(try store.lookUp(guest: Fixture.anna.guest, event: Fixture.otherEvent) == .notFound)
    }

    @Test("a guest on the roster is admissible, with every field read back", arguments: StoreKind.allCases)
    func admissible(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests(Fixture.roster)

        #expect(try store.lookUp(guest: Fixture.anna.guest, event: Fixture.event) == .admissible(Fixture.anna))
        #expect(try store.lookUp(guest: Fixture.emile.guest, event: Fixture.event) == .admissible(Fixture.emile))
    }

    @Test("an upsert changes the guest in place", arguments: StoreKind.allCases)
    func upsertUpdates(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests([Fixture.anna])
        var renamed = Fixture.anna
        renamed.name = "Anna Smith-Berg"
        renamed.partySize = 3
        try store.upsertGuests([renamed])

        #expect(try store.lookUp(guest: Fixture.anna.guest, event: Fixture.event) == .admissible(renamed))
        #expect(try store.guestCount(event: Fixture.event) == 1)
    }

    @Test("a checked-in guest gives the earlier check-in", arguments: StoreKind.allCases)
    func checkedIn(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests(Fixture.roster)
        let checkIn = Fixture.checkIn(Fixture.anna, at: 10, source: .manual)
        #expect(try store.record(checkIn: checkIn, attempt: Fixture.attempt(for: checkIn)) == .recorded)

        #expect(try store.lookUp(guest: Fixture.anna.guest, event: Fixture.event) == .checkedIn(Fixture.anna, checkIn))
        #expect(try store.lookUp(guest: Fixture.bob.guest, event: Fixture.event) == .admissible(Fixture.bob))
    }

    @Test("a cancelled status, or a tombstone, gives cancelled", arguments: StoreKind.allCases)
    func cancelled(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        let cancelledInRoster = Fixture.guest(9, "Zed Cancelled", status: .cancelled)
        try store.upsertGuests(Fixture.roster + [cancelledInRoster])

        #expect(try store.lookUp(guest: cancelledInRoster.guest, event: Fixture.event) == .cancelled(cancelledInRoster))

        try store.cancelGuest(Fixture.bob.guest, event: Fixture.event, at: Fixture.time(5), reason: "refunded")
        var bob = Fixture.bob
        bob.status = .cancelled
        #expect(try store.lookUp(guest: Fixture.bob.guest, event: Fixture.event) == .cancelled(bob))

        // A tombstone for a guest the roster does not hold yet.
        let stranger = Fixture.id(30)
        try store.cancelGuest(stranger, event: Fixture.event, at: Fixture.time(6), reason: "refunded")
        #expect(try store.lookUp(guest: stranger, event: Fixture.event) == .cancelled(nil))
    }

    @Test("a tombstone wins over a later active upsert and over a check-in", arguments: StoreKind.allCases)
    func tombstoneWins(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests([Fixture.anna])
        let checkIn = Fixture.checkIn(Fixture.anna, at: 10)
        _ = try store.record(checkIn: checkIn, attempt: Fixture.attempt(for: checkIn))
        try store.cancelGuest(Fixture.anna.guest, event: Fixture.event, at: Fixture.time(20), reason: "refunded")
        try store.upsertGuests([Fixture.anna])  // a stale roster still says active

        #expect(try store.lookUp(guest: Fixture.anna.guest, event: Fixture.event) == .cancelled(Fixture.anna))
    }

    @Test("a lookup on a file sees at once what another store on the file (kioskctl, a second process) committed")
    func seesAnotherConnectionsCommits() throws {
        let db = try TestDatabase(.file)
        let door = try db.open()
        try door.upsertGuests(Fixture.roster)
        #expect(try door.lookUp(guest: Fixture.anna.guest, event: Fixture.event) == .admissible(Fixture.anna))

        let operatorTool = try db.open()
        let checkIn = Fixture.checkIn(Fixture.anna, at: 10, source: .manual)
        #expect(try operatorTool.record(checkIn: checkIn, attempt: Fixture.attempt(for: checkIn)) == .recorded)
        try operatorTool.cancelGuest(Fixture.bob.guest, event: Fixture.event, at: Fixture.time(5), reason: "refunded")
        var bob = Fixture.bob
        bob.status = .cancelled

        #expect(try door.lookUp(guest: Fixture.anna.guest, event: Fixture.event) == .checkedIn(Fixture.anna, checkIn))
        #expect(try door.lookUp(guest: Fixture.bob.guest, event: Fixture.event) == .cancelled(bob))
    }

    @Test("a lookup on a file answers while another process holds the write lock (WAL readers never wait)")
    func answersWhileTheWriteLockIsHeld() throws {
        let db = try TestDatabase(.file)
        let door = try db.open(busyTimeout: .milliseconds(100))
        try door.upsertGuests(Fixture.roster)
        let holder = try LockHolder(path: db.path, key: db.key)
        defer { try? holder.release() }

        #expect(try door.lookUp(guest: Fixture.anna.guest, event: Fixture.event) == .admissible(Fixture.anna))
    }

    @Test("a status the store never writes is reported as corruption of the lookup", arguments: StoreKind.allCases)
    func corruptStatus(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests([Fixture.anna])
        try store.database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: "UPDATE roster SET status = 'maybe'")
            try db.execute(sql: "PRAGMA ignore_check_constraints = OFF")
        }
        let error = storeError { _ = try store.lookUp(guest: Fixture.anna.guest, event: Fixture.event) }
        #expect(error?.kind == .corrupt)
        #expect(error?.path == store.path)
        #expect(error?.operation == "guest lookup")
        #expect(error?.description.contains("status 'maybe' is not active or cancelled") == true)
    }
}
