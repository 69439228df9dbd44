import SignedRecords

import struct Foundation.Date

/// What the door shows for a scanned or typed pass. A value, not an error.
public enum Verdict: Equatable, Sendable {
    /// Checked in and written locally; `arrived` of the party came in.
    case admitted(GuestSummary, arrived: Int)
    /// Confirm mode: valid and on the roster; staff press Enter to commit.
    case awaitingConfirmation(GuestSummary)
    /// `doubleEntry`: this door admitted the guest too, and the server kept the earlier check-in elsewhere.
    case alreadyCheckedIn(GuestSummary, at: Date, door: String, doubleEntry: Bool = false)
    /// One verdict for forged, unknown-key, other-event and other-tenant passes and for codes that are not passes.
    case notValidHere
    case cancelled(GuestSummary?)
    case notInRoster
    /// The kiosk is enrolled with a server and its first roster download has not finished: no scan is
    /// decided on a partial roster.
    case rosterIncomplete(RosterProgress)
    /// The server requires a newer kiosk for this event: nobody is admitted here until it is updated (what is
    /// queued still goes up).
    case updateRequired
    /// The local database refused the write: nothing may be assumed recorded.
    case recordFailed(String)
    /// Staff undid the guest's check-in here (a mistaken admit): the revert is queued for the server, and the
    /// guest's pass admits again.
    case checkInUndone(GuestSummary)

    /// The machine name used in replay output and the audit log.
    public var name: String {
        switch self {
        case .admitted: "admitted"
        case .awaitingConfirmation: "awaiting_confirmation"
        case .alreadyCheckedIn: "already_checked_in"
        case .notValidHere: "not_valid_here"
        case .cancelled: "cancelled"
        case .notInRoster: "not_in_roster"
        case .rosterIncomplete: "roster_incomplete"
        case .updateRequired: "update_required"
        case .recordFailed: "record_failed"
        case .checkInUndone: "check_in_undone"
        }
    }

    public var guest: GuestSummary? {
        switch self {
        case .admitted(let g, _), .awaitingConfirmation(let g), .alreadyCheckedIn(let g, _, _, _): g
        case .cancelled(let g): g
        case .checkInUndone(let g): g
        case .notValidHere, .notInRoster, .rosterIncomplete, .updateRequired, .recordFailed: nil
        }
    }

    /// The headline on screen.
    public var headline: String {
        switch self {
        case .admitted: "WELCOME"
        case .awaitingConfirmation: ScreenText.confirmHeadline
        case .alreadyCheckedIn: "ALREADY CHECKED IN"
        case .notValidHere: "NOT VALID HERE"
        case .cancelled: "REGISTRATION CANCELLED"
        case .notInRoster: "NOT IN ROSTER"
        case .rosterIncomplete: "ROSTER INCOMPLETE"
        case .updateRequired: "UPDATE REQUIRED"
        case .recordFailed: "CANNOT RECORD"
        case .checkInUndone: "CHECK-IN UNDONE"
        }
    }

    /// The reason line on screen: what staff should do. Never says why a pass is not valid.
    public var reasonLine: String {
        switch self {
        case .admitted(_, let arrived): arrived == 1 ? "Checked in" : "Checked in: party of \(arrived)"
        case .awaitingConfirmation: ScreenText.confirmKeys
        case .alreadyCheckedIn(_, _, _, let doubleEntry):
            doubleEntry ? "Admitted here too while offline: a double entry" : "This pass was already used"
        case .notValidHere: "This pass is not valid here. Ask the guest to check their pass."
        case .cancelled: "Refer to the organizer"
        case .notInRoster: "Guest not in roster: refresh the roster and try again"
        case .updateRequired: "This kiosk is too old for this event: update it. Do not admit; use another door."
        case .rosterIncomplete(let p):
            "Roster download at \(p.fetched) of \(p.total.map(String.init) ?? "?"): connect to the network to finish"
        case .recordFailed(let why): "Not recorded (\(why)). Do not admit; call the organizer."
        case .checkInUndone: "Not checked in any more: the pass admits again"
        }
    }
}
