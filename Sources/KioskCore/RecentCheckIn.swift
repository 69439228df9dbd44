import SignedRecords

/// One of the last check-ins made at this door, offered for undoing (a mistaken admit).
public struct RecentCheckIn: Hashable, Sendable {
    public var guest: RosterGuest
    public var checkIn: CheckIn
    /// The check-in's sequence in this kiosk's sync queue: the revert names it, so the server undoes this scan
    /// and never another door's.
    public var sequence: Int64

    public init(guest: RosterGuest, checkIn: CheckIn, sequence: Int64) {
        self.guest = guest
        self.checkIn = checkIn
        self.sequence = sequence
    }
}

/// The result of undoing a check-in locally.
public enum RevertWrite: Equatable, Sendable {
    /// The local check-in is gone and the revert is queued for the server.
    case reverted
    /// The guest's check-in is no longer this one (undone already, or the server kept another door's scan):
    /// nothing was changed.
    case notCheckedInHere
}
