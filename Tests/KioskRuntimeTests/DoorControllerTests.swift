import Foundation
import KioskCore
import KioskRuntime
import KioskScenes
import PassFormat
import SignedRecords
import Testing

/// Manual entry and confirm mode, driven by keys through the real pipeline and store.
@Suite struct DoorControllerTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func roster(_ door: Door) throws -> [RosterGuest] {
        try door.store.searchGuests(prefix: "", event: door.configuration.event, limit: 1000)
    }

    func type(_ text: String, into door: Door, at t: Date) -> ScanResult? {
        var last: ScanResult?
        var parser = KeyEvent.Parser()
        for key in parser.parse(Array(text.utf8)) { if let r = door.controller.handle(key: key, at: t) { last = r } }
        if let key = parser.flush(), let r = door.controller.handle(key: key, at: t) { last = r }
        return last
    }

    func activeGuest(_ door: Door, _ index: Int = 40) throws -> RosterGuest {
        let manifestGuests = Set(try Fixtures.manifest().entries.flatMap(\.codes))
        return try roster(door).filter { g in
            g.status == .active && !manifestGuests.contains { $0.hasSuffix(g.guest.text) }
        }[index]
    }

    @Test func aTypedConfirmationCodeChecksTheGuestIn() throws {
        let door = try Fixtures.door()
        let guest = try activeGuest(door)
        let result = type(guest.guest.displayCode.lowercased() + "\r", into: door, at: t0)
        #expect(result?.verdict == .admitted(guest.summary, arrived: guest.partySize))
        #expect(result?.source == .manual)
        #expect(try door.store.checkIns(event: door.configuration.event).map(\.guest) == [guest.guest])
        // The same code again: already checked in, when and where.
        let again = type(String(guest.guest.text.prefix(8)) + "\r", into: door, at: t0 + 60)
        #expect(again?.verdict == .alreadyCheckedIn(guest.summary, at: t0, door: door.configuration.door))
    }

    @Test func theStatusLineCountsEachQueuedCheckInAsItIsShown() throws {
        let display = RecordingDisplay()
        let door = try Fixtures.door(display: display)
        let first = try activeGuest(door, 10)
        let second = try activeGuest(door, 11)
        _ = type(first.guest.text + "\r", into: door, at: t0)
        _ = type(second.guest.text + "\r", into: door, at: t0 + 5)
        _ = type(first.guest.text + "\r", into: door, at: t0 + 10)  // a repeat queues nothing
        guard case .verdict(_, let status) = display.last else {
            Issue.record("no verdict shown")
            return
        }
        #expect(status.pendingCheckIns == 2)
        #expect(try door.store.pendingCount() == 2)
    }

    @Test func aNameSearchListsMatchesAndADigitPicksOne() throws {
        let display = RecordingDisplay()
        let door = try Fixtures.door(display: display)
        let guest = try activeGuest(door, 3)
        let surname = String(guest.name.split(separator: " ").last!)
        let matches = try door.store.searchGuests(prefix: surname, event: door.configuration.event, limit: 10)
        try #require(matches.count > 1, "fixture should have several guests named \(surname)")
        #expect(type(surname.lowercased() + "\r", into: door, at: t0) == nil)
        guard case .manualEntry(_, let listed, _) = display.last else {
            Issue.record("no list shown")
            return
        }
        let index = try #require(listed.firstIndex { $0.guest == guest.guest })
        let result = type(String(index + 1), into: door, at: t0)
        #expect(result?.verdict.name == "admitted")
        #expect(result?.verdict.guest?.guest == guest.guest)
    }

    @Test func anUnknownCodeIsNotInRoster() throws {
        let door = try Fixtures.door()
        #expect(type("ZZZZ2222\r", into: door, at: t0)?.verdict == .notInRoster)
        #expect(try door.store.auditLog(limit: 5).last?.source == .manual)
        #expect(try door.store.auditLog(limit: 5).last?.guest == nil)
    }

    /// A whole pass code of a guest the door has not heard of (a late registration while offline): refused, and
    /// audited under that guest, so the log shows whose pass it was.
    @Test func aWholeCodeTheRosterLacksIsAuditedUnderItsGuest() throws {
        let door = try Fixtures.door()
        let stranger = GuestID.random()
        #expect(type(stranger.displayCode + "\r", into: door, at: t0)?.verdict == .notInRoster)
        let row = try door.store.auditLog(limit: 5).last
        #expect(row?.guest == stranger)
        #expect(row?.verdict == "not_in_roster")
    }

    @Test func confirmModeWaitsForEnterAndTakesTheArrivedCount() throws {
        let display = RecordingDisplay()
        let door = try Fixtures.door(mode: .confirm, display: display)
        var guest = try activeGuest(door, 5)
        guest.partySize = 4
        try door.store.upsertGuests([guest])
        let pending = type(guest.guest.text + "\r", into: door, at: t0)
        #expect(pending?.verdict == .awaitingConfirmation(guest.summary))
        #expect(try door.store.checkIns(event: door.configuration.event).isEmpty)
        #expect(type("3", into: door, at: t0) == nil)
        #expect(display.last == .confirm(guest.summary, arrived: "3"))
        let committed = type("\r", into: door, at: t0 + 2)
        #expect(committed?.verdict == .admitted(guest.summary, arrived: 3))
        #expect(try door.store.checkIns(event: door.configuration.event).first?.arrived == 3)
    }

    @Test func escapeCancelsAConfirmation() throws {
        let door = try Fixtures.door(mode: .confirm)
        let guest = try activeGuest(door, 6)
        #expect(type(guest.guest.text + "\r", into: door, at: t0)?.verdict.name == "awaiting_confirmation")
        _ = type("\u{1B}", into: door, at: t0)
        #expect(door.pipeline.pending == nil)
        #expect(try door.store.checkIns(event: door.configuration.event).isEmpty)
        #expect(try door.store.auditLog(limit: 1).last?.verdict == "confirmation_cancelled")
    }

    @Test func aScannedPassInConfirmModeIsCommittedByEnter() throws {
        let door = try Fixtures.door(mode: .confirm)
        let guest = try activeGuest(door, 7)
        let fixture = try FixtureEvent(seed: try Fixtures.manifest().seed)
        let url = try fixture.passURL(for: guest.guest)
        let scanned = door.pipeline.check(code: Array(url.utf8), at: t0)
        #expect(scanned?.verdict == .awaitingConfirmation(guest.summary))
        let committed = door.controller.handle(key: .enter, at: t0 + 1)
        #expect(committed?.verdict == .admitted(guest.summary, arrived: guest.partySize))
    }
}
