import Foundation
import KioskCore
import KioskDisplay
import KioskRuntime
import PassFormat
import SignedRecords
import Testing

/// The door's gates that come from the server: an incomplete first roster download and a kiosk too old for
/// the event. Both stop every check-in, by camera and by typing, and record nothing.
@Suite struct RosterGateTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let controller = DoorControllerTests()

    @Test func anIncompleteRosterAnswersRosterIncompleteUntilTheLastPageIsIn() throws {
        let door = try Fixtures.door()
        let event = door.configuration.event
        let guest = try controller.activeGuest(door)
        try door.store.startRosterDownload(event: event)
        try door.store.applyRosterPage(
            [],
            state: RosterSyncState(event: event, nextPage: "p1:1:X", changeCursor: "c1:1", fetched: 500, total: 1200),
            at: t0)
        let typed = controller.type(guest.guest.text + "\r", into: door, at: t0)
        #expect(typed?.verdict == .rosterIncomplete(RosterProgress(fetched: 500, total: 1200)))
        #expect(typed?.verdict.reasonLine.contains("connect to the network") == true)
        let unknown = controller.type("ZZZZ2222ZZZZ2222\r", into: door, at: t0 + 1)
        #expect(unknown?.verdict.name == "roster_incomplete")
        #expect(try door.store.checkIns(event: event).isEmpty)
        #expect(
            try door.store.auditLog(limit: 5).map(\.verdict).prefix(2) == ["roster_incomplete", "roster_incomplete"])

        try door.store.applyRosterPage(
            [], state: RosterSyncState(event: event, complete: true, changeCursor: "c1:1", fetched: 1200, total: 1200),
            at: t0)
        #expect(controller.type(guest.guest.text + "\r", into: door, at: t0 + 10)?.verdict.name == "admitted")
    }

    @Test func aKioskTooOldForTheEventAdmitsNobody() throws {
        let door = try Fixtures.door()
        let guest = try controller.activeGuest(door)
        door.pipeline.updateRequired = true
        let typed = controller.type(guest.guest.text + "\r", into: door, at: t0)
        #expect(typed?.verdict == .updateRequired)
        #expect(typed?.verdict.colour == .red)
        #expect(try door.store.checkIns(event: door.configuration.event).isEmpty)
        door.pipeline.updateRequired = false
        #expect(controller.type(guest.guest.text + "\r", into: door, at: t0 + 10)?.verdict.name == "admitted")
    }

    @Test func syncNewsNeverReplacesAVerdictStillOnScreen() throws {
        let display = RecordingDisplay()
        let door = try Fixtures.door(display: display)
        let guest = try controller.activeGuest(door)
        _ = controller.type(guest.guest.text + "\r", into: door, at: t0)
        door.controller.status.connection = .online
        door.controller.statusChanged(at: t0 + 1)  // within the 3 s hold: the verdict stays
        guard case .verdict = display.last else {
            Issue.record("the verdict was replaced by \(String(describing: display.last))")
            return
        }
        door.controller.statusChanged(at: t0 + door.controller.verdictHold + 1)
        #expect(display.last == .ready(door.controller.status))
    }

    @Test func aScanNotInTheRosterIsDecidedAgainOnceTheRefreshBringsTheGuest() throws {
        let door = try Fixtures.door()
        let event = door.configuration.event
        let walkIn = GuestID.random()
        #expect(door.controller.decideAgain(guest: walkIn, at: t0, payload: "rescan") == nil)
        #expect(try door.store.auditLog(limit: 1).first?.guest != walkIn)  // nothing audited while unknown
        let guest = RosterGuest(guest: walkIn, tenant: door.configuration.tenant, event: event, name: "Wanda")
        try door.store.applyRosterPage(
            [RosterUpdate(guest: guest, version: 1, checkIn: nil)],
            state: RosterSyncState(event: event, complete: true, changeCursor: "c1:2", fetchedAt: t0), at: t0)
        let again = door.controller.decideAgain(guest: walkIn, at: t0 + 1, payload: "rescan")
        #expect(again?.verdict == .admitted(guest.summary, arrived: 1))
        #expect(again?.source == .camera)
    }
}

/// The status line's sync facts on the text display: roster progress or age, and the warnings.
@Suite struct SyncStatusLineTests {
    @Test func fiveHundredWaitingCheckInsWarnThatReconnectionWillBeSlow() {
        #expect(ScreenText.syncWarning(pending: 499, updateRequired: false) == nil)
        let warning = ScreenText.syncWarning(pending: 500, updateRequired: false)
        #expect(warning?.contains("500 check-ins waiting: reconnection will be slow") == true)
        #expect(ScreenText.syncWarning(pending: 3, updateRequired: true)?.hasPrefix("UPDATE REQUIRED") == true)
    }

    @Test func theRosterShowsItsProgressThenItsAge() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(RosterFreshness.local.label(now: now) == nil)
        #expect(RosterFreshness.downloading(fetched: 500, total: 1200).label(now: now) == "roster 500/1200")
        #expect(RosterFreshness.current(fetchedAt: now - 30).label(now: now) == "roster just now")
        #expect(RosterFreshness.current(fetchedAt: now - 300).label(now: now) == "roster 5 min old")
        #expect(RosterFreshness.current(fetchedAt: now - 7300).label(now: now) == "roster 2 h old")
    }
}

extension SyncStatusLineTests {
    @Test func theTextDisplayShowsTheRosterAndTheWarning() {
        final class Lines: @unchecked Sendable { var text = "" }
        let lines = Lines()
        let display = TextStatusDisplay { lines.text += $0 }
        var status = DoorStatus(door: "North", mode: .auto, connection: .offline, pendingCheckIns: 612)
        status.roster = .downloading(fetched: 500, total: 1200)
        status.warning = ScreenText.syncWarning(pending: 612, updateRequired: false)
        display.show(.ready(status))
        #expect(lines.text.contains("OFFLINE | 612 pending | roster 500/1200"))
        #expect(lines.text.contains("612 check-ins waiting: reconnection will be slow"))
    }
}
