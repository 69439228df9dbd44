import Foundation
import KioskCore
import KioskRuntime
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
