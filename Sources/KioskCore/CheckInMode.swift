/// How a valid pass becomes a check-in.
public enum CheckInMode: String, Sendable, CaseIterable {
    /// A valid pass is checked in at once: the usual unattended door.
    case auto
    /// The screen shows the guest; staff press Enter to commit.
    case confirm
}
