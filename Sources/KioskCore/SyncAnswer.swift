import struct Foundation.Date

/// What the server answered for one queued item (by its queue sequence). Every answer takes the item out of
/// the queue; `superseded` and `rejected` are also kept, so the screen and `kioskctl status` can tell.
public struct SyncAnswer: Equatable, Sendable {
    public enum Outcome: Equatable, Sendable {
        /// Stored: this scan is the guest's check-in, or a recorded check-in event.
        case confirmed
        /// The guest was checked in earlier at `door` at `at` (if the server said); this scan is an event.
        case superseded(door: String?, at: Date?)
        /// Refused for good, with the server's reason: moved to the sync failures.
        case rejected(reason: String)
    }

    public var sequence: Int64
    public var outcome: Outcome

    public init(sequence: Int64, outcome: Outcome) {
        self.sequence = sequence
        self.outcome = outcome
    }
}

/// A scan the server refused for good (`kioskctl status` lists them).
public struct SyncFailure: Equatable, Sendable {
    public var sequence: Int64
    public var checkIn: CheckIn
    public var reason: String
    public var failedAt: Date

    public init(sequence: Int64, checkIn: CheckIn, reason: String, failedAt: Date) {
        self.sequence = sequence
        self.checkIn = checkIn
        self.reason = reason
        self.failedAt = failedAt
    }
}

/// A scan of this kiosk that the server kept as a check-in event, because the guest was checked in earlier
/// elsewhere.
public struct SupersededScan: Equatable, Sendable {
    public var sequence: Int64
    public var checkIn: CheckIn
    public var winningDoor: String?
    public var winningAt: Date?

    public init(sequence: Int64, checkIn: CheckIn, winningDoor: String?, winningAt: Date?) {
        self.sequence = sequence
        self.checkIn = checkIn
        self.winningDoor = winningDoor
        self.winningAt = winningAt
    }
}
