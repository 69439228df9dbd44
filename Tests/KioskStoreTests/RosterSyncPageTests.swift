import Foundation
import GRDB
import KioskCore
import PassFormat
import SignedRecords
import Testing

@testable import KioskStore

/// `applyRosterPage` reads what the kiosk holds of a page's guests in one query per table and writes only
/// what changes: the same outcome, row by row, as probing each guest before applying it.
@Suite("RosterSync: applying a page of the server's roster")
struct RosterSyncPageTests {
    static let state = RosterSyncState(event: Fixture.event, complete: true, changeCursor: "c1:1")

    func update(_ guest: RosterGuest, _ version: Int64, checkIn: CheckIn? = nil) -> RosterUpdate {
        RosterUpdate(guest: guest, version: version, checkIn: checkIn)
    }

    func names(_ store: SQLiteDoorStore, _ prefix: String) throws -> [String] {
        try store.searchGuests(prefix: prefix, event: Fixture.event, limit: 10).map(\.name)
    }

    @Test(
        "versions, tombstones, check-ins and merge protection, with a guest twice in a page",
        arguments: StoreKind.allCases)
    func page(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests(Fixture.roster)
        try store.cancelGuest(Fixture.bob.guest, event: Fixture.event, at: Fixture.time(1), reason: "test")
        let local = Fixture.checkIn(Fixture.anna, at: 2)
        _ = try store.record(checkIn: local, attempt: Fixture.attempt(for: local))
        let south = CheckIn(
            guest: Fixture.carla.guest, event: Fixture.event, door: "South", at: Fixture.time(3), arrived: 1,
            source: .camera)
        var renamed = Fixture.emile
        renamed.name = "Émile Renamed"
        var cancelled = Fixture.dan
        cancelled.status = .cancelled

        let applied = try store.applyRosterPage(
            [
                update(Fixture.carla, 1, checkIn: south), update(Fixture.bob, 1), update(Fixture.anna, 1),
                update(renamed, 2), update(Fixture.emile, 1), update(cancelled, 5),
            ], state: Self.state, at: Fixture.time(10))

        #expect(applied.applied == 5 && applied.older == 1 && applied.protected == 1)
        #expect(try store.lookUp(guest: Fixture.carla.guest, event: Fixture.event) == .checkedIn(Fixture.carla, south))
        #expect(try store.lookUp(guest: Fixture.bob.guest, event: Fixture.event) == .admissible(Fixture.bob))
        #expect(try store.lookUp(guest: Fixture.anna.guest, event: Fixture.event) == .checkedIn(Fixture.anna, local))
        #expect(try store.lookUp(guest: Fixture.dan.guest, event: Fixture.event) == .cancelled(cancelled))
        #expect(try names(store, "renamed") == ["Émile Renamed"])
        #expect(try names(store, "zola").isEmpty)

        var back = Fixture.dan
        back.name = "Dan Older"
        let second = try store.applyRosterPage(
            [update(Fixture.carla, 2), update(back, 4)], state: Self.state, at: Fixture.time(20))
        #expect(second.applied == 1 && second.older == 1)
        #expect(try store.lookUp(guest: Fixture.carla.guest, event: Fixture.event) == .admissible(Fixture.carla))
        #expect(try store.lookUp(guest: Fixture.dan.guest, event: Fixture.event) == .cancelled(cancelled))
        #expect(try names(store, "older").isEmpty)
    }

    @Test("a new guest twice in a page keeps the later row's name words only", arguments: StoreKind.allCases)
    func newGuestTwice(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        let first = Fixture.guest(9, "First Walkin")
        var later = first
        later.name = "Later Walkin"
        let applied = try store.applyRosterPage(
            [update(first, 1), update(later, 2)], state: Self.state, at: Fixture.time(10))
        #expect(applied.applied == 2)
        #expect(try names(store, "walkin") == ["Later Walkin"])
        #expect(try names(store, "first").isEmpty)
    }

    @Test("a page of 1,200 guests (more than one query's worth) is applied whole", arguments: StoreKind.allCases)
    func largePage(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        let guests = (0..<1_200).map { n in
            RosterGuest(
                guest: GuestID(bytes: withUnsafeBytes(of: UInt64(n).bigEndian, Array.init) + [0, 0])!,
                tenant: Fixture.tenant, event: Fixture.event, name: "Guest Number \(n)")
        }
        try store.upsertGuests(Array(guests.suffix(10)))
        let applied = try store.applyRosterPage(
            guests.map { update($0, 1) }, state: Self.state, at: Fixture.time(10))
        #expect(applied.applied == 1_200)
        #expect(try store.guestCount(event: Fixture.event) == 1_200)
        #expect(try names(store, "1199") == ["Guest Number 1199"])
    }

    /// A door's own admit, answered, then another door's earlier scan becomes the check-in on the server: the
    /// delta makes it a double entry here (listed, and shown when the guest is looked up). When the other
    /// scan is reverted and this door's is the check-in again, or when the server has no check-in left, it is
    /// no double entry any more. The order of these pages is whatever the server's changes were.
    @Test("a delta settles this door's admit against the server's check-in", arguments: StoreKind.allCases)
    func doubleEntryFromADelta(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests(Fixture.roster)
        try store.saveEnrolment(
            SyncEnrolment(
                serverURL: "https://checkin.test", deviceID: "dev_here", token: "kt_x", tenant: Fixture.tenant,
                queueEpoch: "e1", caFile: nil, enrolledAt: Fixture.time(0)))
        let mine = Fixture.checkIn(Fixture.anna, at: 30)
        _ = try store.record(checkIn: mine, attempt: Fixture.attempt(for: mine))
        let sequence = try #require(try store.nextSyncBatch().first?.sequence)
        try store.applySyncAnswers([SyncAnswer(sequence: sequence, outcome: .confirmed)], at: Fixture.time(31))
        let north = CheckIn(
            guest: Fixture.anna.guest, event: Fixture.event, door: "North", at: Fixture.time(5), arrived: 1,
            source: .camera)
        let ownAgain = CheckIn(
            guest: Fixture.anna.guest, event: Fixture.event, door: mine.door, at: mine.at, arrived: mine.arrived,
            source: .camera)
        func page(_ version: Int64, _ checkIn: CheckIn?, _ scan: ServerScan?) throws {
            try store.applyRosterPage(
                [RosterUpdate(guest: Fixture.anna, version: version, checkIn: checkIn, checkInScan: scan)],
                state: Self.state, at: Fixture.time(40 + Int(version)))
        }
        let lookUp = { try store.lookUp(guest: Fixture.anna.guest, event: Fixture.event) }

        try page(2, north, ServerScan(deviceId: "dev_north", sequence: 9))
        #expect(try lookUp() == .doubleEntry(Fixture.anna, north))
        let superseded = try store.supersededScans()
        #expect(superseded.map(\.sequence) == [sequence])
        #expect(superseded.first?.winningDoor == "North" && superseded.first?.checkIn.door == mine.door)
        // The same row again changes nothing.
        try page(3, north, ServerScan(deviceId: "dev_north", sequence: 9))
        #expect(try store.supersededScans().count == 1)

        // North's scan reverted on the server: this door's admit is the check-in again, and this door's to undo.
        try page(4, ownAgain, ServerScan(deviceId: "dev_here", sequence: sequence))
        #expect(try lookUp() == .checkedIn(Fixture.anna, ownAgain))
        #expect(try store.supersededScans().isEmpty)
        #expect(try store.recentCheckIns(event: Fixture.event, door: mine.door, limit: 5).count == 1)

        // Displaced again, then every admit reverted on the server: no check-in, no double entry.
        try page(5, north, ServerScan(deviceId: "dev_north", sequence: 9))
        #expect(try store.supersededScans().count == 1)
        try page(6, nil, nil)
        #expect(try lookUp() == .admissible(Fixture.anna))
        #expect(try store.supersededScans().isEmpty)
    }

    @Test(
        "a first download writes its guests' name words with each page; a renamed guest's old words go",
        arguments: StoreKind.allCases)
    func firstDownloadWritesWordsWithEachPage(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        // A guest the kiosk already had (an earlier roster), renamed by the download: its old words go.
        var renamed = Fixture.emile
        try store.upsertGuests([renamed])
        renamed.name = "Émile Zola-Renamed"
        var incomplete = RosterSyncState(event: Fixture.event, complete: false, nextPage: "p2", changeCursor: "c1:1")
        let first = [Fixture.anna, Fixture.bob, renamed].map { update($0, 1) }
        try store.applyRosterPage(
            PreparedRosterPage(first, firstDownload: true), state: incomplete, at: Fixture.time(1))
        // Before the last page: the download's guests are found by any word of their names already.
        #expect(try names(store, "renamed") == ["Émile Zola-Renamed"] && names(store, "jones") == ["Bob Jones"])
        #expect(try names(store, "martin").isEmpty)

        incomplete.complete = true
        incomplete.nextPage = nil
        try store.applyRosterPage(
            PreparedRosterPage([update(Fixture.carla, 1)], firstDownload: true), state: incomplete,
            at: Fixture.time(2))
        for guest in [Fixture.anna, Fixture.bob, renamed, Fixture.carla] {
            #expect(try wordsOf(store, guest) == NameWordsModel.words(of: guest.name), "\(guest.name)")
        }
        #expect(try names(store, "zola") == ["Émile Zola-Renamed"])
    }

    func wordsOf(_ store: SQLiteDoorStore, _ guest: RosterGuest) throws -> Set<String> {
        try store.database.read { db in
            Set(
                try String.fetchAll(
                    db, sql: "SELECT word FROM roster_words WHERE event = ? AND guest_id = ?",
                    arguments: [guest.event.rawValue, guest.guest.text]))
        }
    }

    @Test("name words, made in SQL, are the model's for awkward names", arguments: StoreKind.allCases)
    func wordsInSQLAreTheModels(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        let names = [
            "Mary-Jane O'Neil", "  Émile   Zola ", "Łukasz--Søren", "-a- -b-", "李 小龍", "Zoë\u{301}-Ñúñez",
            "Ωmega - Δelta", "a\u{2D}\u{301}b", "x\u{200D}-y", "José José", "👩‍👩‍👧 Family-Name", "O",
        ]
        let guests = names.enumerated().map { Fixture.guest(UInt8(100 + $0.offset), $0.element) }
        try store.upsertGuests(guests)
        for guest in guests {
            #expect(try wordsOf(store, guest) == NameWordsModel.words(of: guest.name), "\(guest.name)")
        }
        // The same through a roster page.
        let renamed = guests.map { guest in
            var renamed = guest
            renamed.name = "x-" + guest.name
            return update(renamed, 1)
        }
        try store.applyRosterPage(renamed, state: Self.state, at: Fixture.time(1))
        for guest in guests {
            #expect(try wordsOf(store, guest) == NameWordsModel.words(of: "x-" + guest.name), "\(guest.name)")
        }
    }

    /// The index definitions of the kiosk database, as SQLite keeps them.
    func indexes(_ store: SQLiteDoorStore) throws -> [String] {
        try store.database.read { db in
            try String.fetchAll(
                db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
        }
    }

    @Test(
        "a first download into an event with no guests builds the search indexes at its last page, as migrated",
        arguments: StoreKind.allCases)
    func firstDownloadBuildsTheSearchIndexesAtItsEnd(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        let migrated = try indexes(store)
        #expect(migrated.contains { $0.contains("roster_by_name") } && migrated.count >= SearchIndexes.all.count)
        var state = RosterSyncState(event: Fixture.event, complete: false, nextPage: "p2", changeCursor: "c1:1")
        try store.applyRosterPage(
            PreparedRosterPage([Fixture.anna, Fixture.bob].map { update($0, 1) }, firstDownload: true), state: state,
            at: Fixture.time(1))
        let during = try indexes(store)
        #expect(during.count == migrated.count - SearchIndexes.all.count)
        // Meanwhile a search still finds the guests (by reading the table).
        #expect(try names(store, "anna") == ["Anna Smith"])

        state.complete = true
        state.nextPage = nil
        try store.applyRosterPage(
            PreparedRosterPage([Fixture.carla].map { update($0, 1) }, firstDownload: true), state: state,
            at: Fixture.time(2))
        #expect(try indexes(store) == migrated)
        #expect(try names(store, "smith") == ["Anna Smith", "carla smithers"])
        // The words' foreign key is on again for the next transaction.
        #expect(try store.database.read { db in try Int.fetchOne(db, sql: "PRAGMA foreign_keys") } == 1)
    }

    @Test("a store opened after a first download was cut off has its search indexes again")
    func openingAfterACutDownloadBuildsTheIndexes() throws {
        let db = try TestDatabase(.file)
        var migrated: [String] = []
        do {
            let store = try db.open()
            migrated = try indexes(store)
            let state = RosterSyncState(event: Fixture.event, complete: false, nextPage: "p2", changeCursor: "c1:1")
            try store.applyRosterPage(
                PreparedRosterPage([update(Fixture.anna, 1)], firstDownload: true), state: state, at: Fixture.time(1))
            #expect(try indexes(store) != migrated)
        }
        let reopened = try db.open()
        #expect(try indexes(reopened) == migrated)
        #expect(try reopened.rosterSyncState(event: Fixture.event)?.fetched == 0)
    }
}
