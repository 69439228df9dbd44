/// The colour field a verdict is shown on, the same on every display: green to let in, amber for a repeat,
/// red to stop, blue to look the guest up. Displays map it to their own palette (RGB, ANSI).
public enum VerdictColour: String, Sendable, CaseIterable {
    case green, amber, red, blue
}

extension Verdict {
    /// Green admitted and awaiting confirmation, amber already checked in and an undone check-in, red not valid, cancelled and record
    /// failed, blue not in roster and roster incomplete.
    public var colour: VerdictColour {
        switch self {
        case .admitted, .awaitingConfirmation: .green
        case .alreadyCheckedIn, .checkInUndone: .amber
        case .notValidHere, .cancelled, .recordFailed, .updateRequired: .red
        case .notInRoster, .rosterIncomplete: .blue
        }
    }
}
