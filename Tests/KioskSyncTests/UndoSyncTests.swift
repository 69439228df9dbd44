import Foundation
import KioskCore
import KioskStore
import PassFormat
import TestSupport
import Testing
import WireAPI

/// Undoing a mistaken admit: the revert goes through the queue and is applied on the server in order.
@Suite("Undo at the kiosk, applied on the server", .serialized)
struct UndoSyncTests {
    @Test(
        "Ctrl-U at the live kiosk undoes an admit: the server removes the check-in, and the pass admits again",
        .enabled(if: LiveProcesses.toolsPresent, "needs openssl and curl"))
    func undoAtTheLiveKiosk() async throws {
        let server = try await EndToEndSyncTests.server()
        defer { server.stopWithoutWaiting() }
        let north = try await LiveKioskFolder(door: "North", server: server)
        _ = try await EndToEndSyncTests.enroll(north, server)
        try north.runWithoutFrames()
        let roster = try EndToEndSyncTests.roster()
        let (guest, other) = (roster[3], roster[4])
        let store = try north.openStore()
        func checkedIn() throws -> Set<GuestID> { Set(try store.checkIns(event: EventID(1)).map(\.guest)) }
        func serverCheckIns() async throws -> [ExportedLine] {
            try await EndToEndSyncTests.export(server).filter { $0.record == "check_in" }
        }

        let keyboard = Pipe()
        let screen = Pipe()
        let kiosk = try north.startKiosk(screen: screen, keyboard: keyboard)
        defer { kiosk.terminateWithoutWaiting() }
        func type(_ text: String) { keyboard.fileHandleForWriting.write(Data(text.utf8)) }

        type(guest.text + "\n")
        type(other.text + "\n")
        #expect(try await eventually(every: .milliseconds(100)) { try checkedIn() == [guest, other] })
        #expect(
            try await eventually(every: .milliseconds(100)) {
                try await serverCheckIns().count == 2 && north.pending() == 0
            })

        // The guest was let in by mistake: Ctrl-U lists the door's last check-ins, newest first; 2 is the guest.
        type("\u{15}")
        type("2")
        #expect(try await eventually(every: .milliseconds(100)) { try checkedIn() == [other] })
        #expect(
            try await eventually(every: .milliseconds(100)) {
                try await serverCheckIns().map(\.guestId) == [other.text]
            })
        #expect(try await eventually(every: .milliseconds(100)) { try north.pending() == 0 })

        // The pass admits again: a new check-in, after the revert, on the server too.
        type(guest.text + "\n")
        #expect(
            try await eventually(every: .milliseconds(100)) {
                try await serverCheckIns().count == 2 && north.pending() == 0
            })
        kiosk.terminate()
        await kiosk.waitUntilExit()
        let written = await screen.fileHandleForReading.readDataToEndOfFile()
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.contains("UNDO A CHECK-IN") && text.contains("CHECK-IN UNDONE"), "\(text.suffix(3000))")

        let lines = try await EndToEndSyncTests.export(server).filter { $0.guestId == guest.text }
        let events = lines.filter { $0.record == "check_in_event" }.sorted { $0.sequence < $1.sequence }
        #expect(events.map(\.kind) == ["check_in", "revert", "check_in"], "\(events)")
        #expect(events.map(\.outcome) == ["applied", "applied", "applied"], "\(events)")
        #expect(events[1].reverts?.sequence == events[0].sequence)
        let kept = try #require(lines.first { $0.record == "check_in" })
        #expect(kept.sequence == events[2].sequence, "the check-in is the scan after the undo")
    }

    @Test(
        "undoing a scan another door made earlier leaves that door's check-in on the server and on the kiosk",
        .enabled(if: LiveProcesses.toolsPresent, "needs openssl and curl"))
    func undoOfASupersededScan() async throws {
        let server = try await EndToEndSyncTests.server()
        defer { server.stopWithoutWaiting() }
        let north = try await LiveKioskFolder(door: "North", server: server)
        let south = try await LiveKioskFolder(door: "South", server: server)
        _ = try await EndToEndSyncTests.enroll(north, server)
        _ = try await EndToEndSyncTests.enroll(south, server)
        let guest = try EndToEndSyncTests.roster()[7]
        let base = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 600).rounded())
        // Offline, North admits the guest first; South admits the guest a minute later, then undoes it.
        try north.scanOffline([guest], at: [base])
        try south.scanOffline([guest], at: [base + 60])
        let southStore = try south.openStore()
        let recent = try southStore.recentCheckIns(event: EventID(1), door: "South", limit: 5)
        try #require(recent.count == 1)
        let attempt = ScanAttempt(
            at: base + 90, door: "South", source: .manual, payload: "undo", guest: guest, verdict: "check_in_undone",
            reason: "mistaken admit")
        #expect(try southStore.revert(recent[0], attempt: attempt) == .reverted)

        await #expect(try north.kioskctl(["sync"]).status == 0)
        let synced = try await south.kioskctl(["sync"])
        #expect(synced.status == 0, "\(synced.err)")
        #expect(synced.out.contains("sent 2 in 1 batches: 1 confirmed, 1 superseded, 0 rejected"), "\(synced.out)")

        let lines = try await EndToEndSyncTests.export(server).filter { $0.guestId == guest.text }
        let kept = try #require(lines.first { $0.record == "check_in" })
        #expect(kept.door == "North" && kept.scannedAt == base)
        let revert = try #require(lines.first { $0.kind == "revert" })
        #expect(revert.outcome == "recorded" && revert.door == "South")
        // South learns North's check-in with the roster (sync: queue, then roster).
        guard case .checkedIn(_, let checkIn) = try southStore.lookUp(guest: guest, event: EventID(1)) else {
            Issue.record("South does not show the guest checked in at North")
            return
        }
        // The roster carries the corrected scan time: the device's plus its measured clock offset (milliseconds).
        #expect(checkIn.door == "North" && abs(checkIn.at.timeIntervalSince(base)) < 10, "\(checkIn)")
        #expect(try southStore.recentCheckIns(event: EventID(1), door: "South", limit: 5).isEmpty)
    }
}
