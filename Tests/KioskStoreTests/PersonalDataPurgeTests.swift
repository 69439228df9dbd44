import Foundation
import KioskCore
import PassFormat
import SignedRecords
import Testing

@_spi(Benchmarks) @testable import KioskStore

/// Retention on the kiosk: the server's purge date per event, then the guests' names, e-mail addresses and
/// notes deleted once it has passed, counts, check-ins and the queue kept.
@Suite("Personal data purge on the kiosk")
struct PersonalDataPurgeTests {
    /// 60 guests whose personal fields are each findable as bytes: surname, e-mail domain, note.
    static let guests: [RosterGuest] = (1...60).map { n in
        RosterGuest(
            guest: Fixture.id(UInt8(n)), tenant: Fixture.tenant, event: Fixture.event,
            name: "Guest\(n) Wolfenbüttel", email: "g\(n)@retention-test.example", partySize: 1, status: .active,
            notes: "needs a ramp (note \(n))")
    }
    /// The name as written, as the search keys fold it, the address, the note, and a name staff typed.
    static let personal = ["Wolfenbüttel", "wolfenbuttel", "retention-test.example", "needs a ramp", "Wolfenb Gue"]
    static let purgeAt = Fixture.time(10_000)

    @Test(
        "nothing before the date; at it, names, e-mails and notes go, once; counts, check-ins and queue stay",
        arguments: StoreKind.allCases)
    func purgeOnce(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.upsertGuests(Self.guests + [Fixture.guest(200, "Other Event", event: Fixture.otherEvent)])
        for guest in Self.guests.prefix(5) {
            let checkIn = CheckIn(
                guest: guest.guest, event: guest.event, door: Fixture.door, at: Fixture.time(100), arrived: 1,
                source: .camera)
            _ = try store.record(checkIn: checkIn, attempt: Fixture.attempt(for: checkIn))
        }
        try store.cancelGuest(
            Self.guests[9].guest, event: Fixture.event, at: Fixture.time(50), reason: "asked by Wolfenbuettel")
        #expect(try store.personalDataRetention(event: Fixture.event) == nil)
        try store.recordPersonalDataPurgeDates([Fixture.event: Self.purgeAt])
        #expect(
            try store.personalDataRetention(event: Fixture.event)
                == PersonalDataRetentionState(event: Fixture.event, purgeAt: Self.purgeAt, purgedAt: nil))
        let pending = try store.pendingCount()
        #expect(pending == 5)

        #expect(try store.purgePersonalData(dueAt: Self.purgeAt.addingTimeInterval(-1)).isEmpty, "a second early")
        #expect(try store.searchGuests(prefix: "wolfen", event: Fixture.event, limit: 100).count == 60)

        let purged = try store.purgePersonalData(dueAt: Self.purgeAt)
        #expect(purged.map(\.event) == [Fixture.event] && purged.map(\.guests) == [60])
        #expect(try store.searchGuests(prefix: "wolfen", event: Fixture.event, limit: 100).isEmpty)
        #expect(try store.searchGuests(prefix: "guest", event: Fixture.event, limit: 100).isEmpty)
        #expect(try store.guestCount(event: Fixture.event) == 60, "the guests stay countable")
        #expect(try store.checkIns(event: Fixture.event).count == 5)
        #expect(try store.pendingCount() == pending, "the queue is uploaded as before")
        #expect(try store.guests(codePrefix: "", event: Fixture.otherEvent, limit: 5).map(\.name) == ["Other Event"])
        for guest in try store.guests(codePrefix: "", event: Fixture.event, limit: 100) {
            #expect(guest.name.isEmpty && guest.email.isEmpty && guest.notes.isEmpty)
        }
        let state = try #require(try store.personalDataRetention(event: Fixture.event))
        #expect(state.purgedAt == Self.purgeAt)
        #expect(try store.auditLog(limit: 1).map(\.verdict) == ["personal_data_purged"])

        // Once: a later round purges nothing, and a new date from the server does not undo it.
        #expect(try store.purgePersonalData(dueAt: Self.purgeAt.addingTimeInterval(3600)).isEmpty)
        try store.recordPersonalDataPurgeDates([Fixture.event: Self.purgeAt.addingTimeInterval(86_400)])
        #expect(try store.personalDataRetention(event: Fixture.event) == state)
    }

    @Test("a moved date replaces the one kept before the purge")
    func dateMoves() throws {
        let db = try TestDatabase(.memory)
        let store = try db.open()
        try store.recordPersonalDataPurgeDates([Fixture.event: Self.purgeAt])
        let later = Self.purgeAt.addingTimeInterval(7 * 86_400)
        try store.recordPersonalDataPurgeDates([Fixture.event: later])
        #expect(try store.personalDataRetention(event: Fixture.event)?.purgeAt == later)
        #expect(try store.purgePersonalData(dueAt: Self.purgeAt).isEmpty)
    }

    /// The file itself, read as bytes: every personal field is in the database file or its WAL before the
    /// purge, and none after (the purge rebuilds the file and empties the WAL, so no freed page keeps a name).
    /// On a plain file, as kiosks before encryption wrote it, so the bytes can be read: a door's file is
    /// encrypted as well.
    @Test("nothing personal remains in the database file after the purge")
    func nothingRemainsInTheFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("plain.db")
        let store = try SQLiteDoorStore.plaintextForBenchmark(path: path)
        try store.upsertGuests(Self.guests)
        // Edited names leave their old versions in freed pages and the WAL too.
        try store.upsertGuests(
            Self.guests.prefix(20).map {
                var edited = $0
                edited.name += " Jr"
                return edited
            })
        // Staff found a guest by typing part of a name, and typed a name that matched no one.
        for (guest, typed) in [(Optional(Self.guests[0].guest), "Wolfenb Gue"), (nil, "Wolfenbüttel Zz")] {
            try store.audit(
                ScanAttempt(
                    at: Fixture.time(200), door: Fixture.door, source: .manual, payload: typed, guest: guest,
                    verdict: guest == nil ? "not_in_roster" : "admitted", reason: "manual entry"))
        }
        try store.recordPersonalDataPurgeDates([Fixture.event: Self.purgeAt])
        let before = try Self.fileBytes(path)
        for text in Self.personal { #expect(Self.contains(before, text), "\(text) is in the file before the purge") }

        try store.purgePersonalData(dueAt: Self.purgeAt)
        let after = try Self.fileBytes(path)
        for text in Self.personal { #expect(!Self.contains(after, text), "\(text) is still in the file") }
        #expect(try store.guestCount(event: Fixture.event) == 60)
        #expect(
            try store.auditLog(limit: 10).filter { $0.source == .manual && $0.verdict != "personal_data_purged" }.map(
                \.payload) == ["", ""])
    }

    static func fileBytes(_ path: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for file in [path, path + "-wal"] where FileManager.default.fileExists(atPath: file) {
            bytes += [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        }
        return bytes
    }

    static func contains(_ haystack: [UInt8], _ text: String) -> Bool {
        let needle = [UInt8](text.utf8)
        guard needle.count <= haystack.count else { return false }
        var i = 0
        while i <= haystack.count - needle.count {
            if haystack[i] == needle[0] && Array(haystack[i..<(i + needle.count)]) == needle { return true }
            i += 1
        }
        return false
    }
}
