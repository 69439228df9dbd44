import Foundation
import KioskCore
import KioskRuntime
import KioskScenes
import Testing

/// Undoing a mistaken admit at the keyboard: Ctrl-U lists the door's last check-ins, a digit undoes one.
@Suite struct UndoTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let keys = DoorControllerTests()

    @Test func ctrlUListsTheLastCheckInsAndADigitUndoesOne() throws {
        let display = RecordingDisplay()
        let door = try Fixtures.door(display: display)
        let guests = try (0..<7).map { try keys.activeGuest(door, 20 + $0) }
        for (i, g) in guests.enumerated() {
            #expect(keys.type(g.guest.text + "\r", into: door, at: t0 + Double(i))?.verdict.name == "admitted")
        }

        #expect(keys.type("\u{15}", into: door, at: t0 + 60) == nil)
        guard case .undo(let listed, let message) = display.last else {
            Issue.record("no undo list shown: \(String(describing: display.last))")
            return
        }
        // The last five, newest first.
        #expect(listed.map(\.guest.guest) == guests.suffix(5).reversed().map(\.guest))
        #expect(message.contains("Press 1-5"), "\(message)")
        #expect(keys.type("9", into: door, at: t0 + 61) == nil, "a digit with no row undoes nothing")

        // 2 is the second newest.
        let undone = guests[5]
        let result = keys.type("2", into: door, at: t0 + 62)
        #expect(result?.verdict == .checkInUndone(undone.summary))
        guard case .verdict(_, let status) = display.last else {
            Issue.record("no verdict shown")
            return
        }
        #expect(status.pendingCheckIns == 8, "seven check-ins and the revert are queued")
        let event = door.configuration.event
        #expect(!(try door.store.checkIns(event: event).map(\.guest).contains(undone.guest)))
        #expect(try door.store.lookUp(guest: undone.guest, event: event) == .admissible(undone))

        // The revert is queued after the check-ins and names the check-in it undoes.
        let queued = try door.store.pendingCheckIns(limit: 50)
        #expect(queued.count == 8)
        let undoneItem = try #require(queued.first { $0.checkIn.guest == undone.guest && $0.kind == .checkIn })
        #expect(queued.last?.kind == .revert(of: undoneItem.sequence))
        #expect(queued.last?.checkIn.guest == undone.guest)
        #expect(queued.last?.checkIn.at == t0 + 62)
        #expect(try door.store.auditLog(limit: 1).last?.verdict == "check_in_undone")

        // The pass admits again, and that check-in can be undone in its turn.
        #expect(keys.type(undone.guest.text + "\r", into: door, at: t0 + 70)?.verdict.name == "admitted")
        _ = keys.type("\u{15}", into: door, at: t0 + 80)
        guard case .undo(let again, _) = display.last else {
            Issue.record("no undo list shown")
            return
        }
        #expect(again.first?.guest.guest == undone.guest)
        #expect(again.first?.checkIn.at == t0 + 70)
    }

    @Test func escLeavesTheListAndAStaleRowUndoesNothing() throws {
        let display = RecordingDisplay()
        let door = try Fixtures.door(display: display)
        _ = keys.type("\u{15}", into: door, at: t0)
        guard case .undo(let empty, let message) = display.last else {
            Issue.record("no undo list shown")
            return
        }
        #expect(empty.isEmpty && message.contains("No check-in at this door"), "\(message)")
        _ = keys.type("\u{1B}", into: door, at: t0 + 1)
        guard case .ready = display.last else {
            Issue.record("Esc did not leave the list: \(String(describing: display.last))")
            return
        }

        let guest = try keys.activeGuest(door, 30)
        _ = keys.type(guest.guest.text + "\r", into: door, at: t0 + 2)
        let listed = try door.store.recentCheckIns(
            event: door.configuration.event, door: door.configuration.door, limit: 5)
        #expect(listed.count == 1)
        // Undone once: the same row again changes nothing and is refused.
        let attempt = ScanAttempt(
            at: t0 + 3, door: door.configuration.door, source: .manual, payload: "undo", guest: guest.guest,
            verdict: "check_in_undone", reason: "test")
        #expect(try door.store.revert(listed[0], attempt: attempt) == .reverted)
        #expect(try door.store.revert(listed[0], attempt: attempt) == .notCheckedInHere)
        #expect(try door.store.pendingCount() == 2)
        #expect(try door.store.auditLog(limit: 1).last?.verdict == "undo_refused")
        #expect(
            try door.store.recentCheckIns(event: door.configuration.event, door: door.configuration.door, limit: 5)
                .isEmpty)
    }
}
