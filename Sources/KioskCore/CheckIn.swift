import PassFormat

import struct Foundation.Date

/// How a guest reached the door's decision.
public enum ScanSource: String, Sendable, Codable {
    case camera
    case manual
}

/// A check-in as written to the local database and queued for the server.
public struct CheckIn: Hashable, Sendable {
    public var guest: GuestID
    public var event: EventID
    public var door: String
    public var at: Date
    /// How many of the party actually arrived.
    public var arrived: Int
    public var source: ScanSource

    public init(guest: GuestID, event: EventID, door: String, at: Date, arrived: Int, source: ScanSource) {
        self.guest = guest
        self.event = event
        self.door = door
        self.at = at
        self.arrived = arrived
        self.source = source
    }

    /// Idempotency key for the server: the same check-in replayed twice is stored once.
    public var idempotencyKey: String {
        "\(door)|\(event)|\(guest.text)|\(at.millisecondsSince1970)"
    }
}

/// One scan attempt for the audit log: every verdict, with the reason the screen does not show.
public struct ScanAttempt: Hashable, Sendable {
    public var at: Date
    public var door: String
    public var source: ScanSource
    /// The scanned text (truncated), or the typed code.
    public var payload: String
    public var guest: GuestID?
    public var verdict: String
    public var reason: String

    public init(
        at: Date, door: String, source: ScanSource, payload: String, guest: GuestID?, verdict: String,
        reason: String
    ) {
        self.at = at
        self.door = door
        self.source = source
        self.payload = payload
        self.guest = guest
        self.verdict = verdict
        self.reason = reason
    }
}

/// A check-in (or staff undoing one) waiting to be sent to the check-in server, in scan order.
public struct PendingCheckIn: Hashable, Sendable {
    /// What a queued item asks of the server.
    public enum Kind: Hashable, Sendable {
        case checkIn
        /// Staff undid the check-in queued under `sequence` at this kiosk (nil: a check-in of this kiosk whose
        /// queue sequence is unknown, such as one made before the kiosk kept it).
        case revert(of: Int64?)
    }

    public var sequence: Int64
    /// For a revert: the guest, the door, the time staff undid it (`at`), and `arrived` 0.
    public var checkIn: CheckIn
    public var kind: Kind
    public var attempts: Int
    public var lastError: String?

    public init(sequence: Int64, checkIn: CheckIn, kind: Kind = .checkIn, attempts: Int, lastError: String?) {
        self.sequence = sequence
        self.checkIn = checkIn
        self.kind = kind
        self.attempts = attempts
        self.lastError = lastError
    }
}
