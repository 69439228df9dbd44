import Foundation
import GrayImage
import KioskCore
import KioskFramebuffer
import PassFormat
import SignedRecords

/// The screens the tests draw, with fixed guests, times and statuses.
enum ScreenFixtures {
    static let width = 1280
    static let height = 800

    static func guest(_ name: String, party: Int = 1, notes: String = "", byte: UInt8 = 1) -> GuestSummary {
        GuestSummary(
            guest: GuestID(bytes: [UInt8](repeating: byte, count: GuestID.byteCount))!, name: name, partySize: party,
            notes: notes)
    }

    static let ada = guest("Ada Lovelace", party: 3, byte: 1)
    static let grace = guest("Grace Hopper", party: 2, notes: "Wheelchair access; speaker at 14:00", byte: 2)
    static let status = DoorStatus(
        door: "North door", mode: .auto, connection: .offline, pendingCheckIns: 4, camera: .streaming(""), fps: 30)
    /// 2024-05-04 13:07:21 UTC.
    static let earlier = Date(timeIntervalSince1970: 1_714_828_041)

    static func verdict(_ v: Verdict) -> DoorScreen {
        .verdict(ScanResult(verdict: v, at: earlier, source: .camera, auditReason: "test"), status)
    }

    static func rosterGuest(_ name: String, email: String, party: Int, cancelled: Bool = false, byte: UInt8)
        -> RosterGuest
    {
        RosterGuest(
            guest: GuestID(bytes: [UInt8](repeating: byte, count: GuestID.byteCount))!, tenant: TenantID(1),
            event: EventID(7),
            name: name, email: email, partySize: party, status: cancelled ? .cancelled : .active)
    }

    /// Every screen with a reference picture, by file name.
    static let screens: [(name: String, screen: DoorScreen)] = [
        ("admitted", verdict(.admitted(ada, arrived: 3))),
        ("awaiting-confirmation", verdict(.awaitingConfirmation(ada))),
        ("already-checked-in", verdict(.alreadyCheckedIn(grace, at: earlier, door: "South door"))),
        ("not-valid-here", verdict(.notValidHere)),
        ("cancelled", verdict(.cancelled(guest("Charles Babbage", party: 1, byte: 3)))),
        ("not-in-roster", verdict(.notInRoster)),
        ("record-failed", verdict(.recordFailed("disk full"))),
        ("confirm", .confirm(grace, arrived: "1")),
        (
            "manual-entry",
            .manualEntry(
                query: "hop",
                matches: [
                    rosterGuest("Grace Hopper", email: "grace@navy.example", party: 2, byte: 2),
                    rosterGuest("Grace Hopper-Smith", email: "ghs@example.org", party: 1, byte: 4),
                    rosterGuest("Hopkins, Johns", email: "jh@example.org", party: 4, cancelled: true, byte: 5),
                ], message: "Press 1-3 to choose, Esc to clear")
        ),
        ("check-in-undone", verdict(.checkInUndone(ada))),
        (
            "undo",
            .undo(
                [
                    RecentCheckIn(
                        guest: rosterGuest("Grace Hopper", email: "grace@navy.example", party: 2, byte: 2),
                        checkIn: CheckIn(
                            guest: grace.guest, event: EventID(7), door: "North door", at: earlier, arrived: 2,
                            source: .camera), sequence: 12),
                    RecentCheckIn(
                        guest: rosterGuest("Ada Lovelace", email: "ada@example.org", party: 3, byte: 1),
                        checkIn: CheckIn(
                            guest: ada.guest, event: EventID(7), door: "North door", at: earlier - 95, arrived: 1,
                            source: .manual), sequence: 11),
                ], message: "Press 1-2 to undo that check-in, Esc to keep them all")
        ),
        ("ready", .ready(status)),
    ]

    /// A 640x480 camera picture: a soft gradient with a dark QR-like square in the middle.
    static let preview: GrayFrame = {
        let w = 640
        let h = 480
        var frame = GrayFrame(width: w, height: h, fill: 0)
        for y in 0..<h {
            for x in 0..<w { frame[x, y] = UInt8(60 + (x + y) * 120 / (w + h)) }
        }
        let side = 210
        let module = 10
        let left = (w - side) / 2
        let top = (h - side) / 2
        for y in 0..<side {
            for x in 0..<side {
                let mx = x / module
                let my = y / module
                let finder = (mx < 7 && my < 7) || (mx >= 14 && my < 7) || (mx < 7 && my >= 14)
                let dark: Bool
                if finder {
                    let fx = mx >= 14 ? mx - 14 : mx
                    let fy = my >= 14 ? my - 14 : my
                    dark = fx == 0 || fx == 6 || fy == 0 || fy == 6 || (fx >= 2 && fx <= 4 && fy >= 2 && fy <= 4)
                } else {
                    dark = (mx * 7 + my * 13 + mx * my) % 3 == 0
                }
                frame[left + x, top + y] = dark ? 20 : 235
            }
        }
        return frame
    }()

    /// A new renderer (renderers keep glyph caches and tests run in parallel); times shown in UTC so
    /// pictures do not depend on the machine.
    static var renderer: ScreenRenderer { try! ScreenRenderer(timeZone: TimeZone(identifier: "UTC")!) }
}
