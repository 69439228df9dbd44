import EntryRules
import Foundation
import PassFormat

/// The idempotency key of an uploaded item: the server applies each key once however often it arrives.
public struct ScanKey: Hashable, Sendable, Codable, CustomStringConvertible {
    public var deviceId: String
    public var epoch: String
    public var sequence: Int64

    public init(deviceId: String, epoch: String, sequence: Int64) {
        self.deviceId = deviceId
        self.epoch = epoch
        self.sequence = sequence
    }

    public var description: String { "\(deviceId)/\(epoch)/\(sequence)" }
}

public enum ScanKind: String, Sendable, Codable {
    /// A guest admitted at a door.
    case checkIn = "check_in"
    /// Staff confirmed an already-checked-in guest again: an event, never a second check-in.
    case reconfirm
    /// Staff undid a mistaken admit.
    case revert
    /// A guest let out at an exit door of a list (issue 51): never a check-in, counted by "inside now".
    case exit
}

/// One uploaded item: a scan as the kiosk recorded it.
public struct Scan: Equatable, Sendable {
    public var key: ScanKey
    public var guest: GuestID
    public var kind: ScanKind
    /// The device's own clock.
    public var deviceTime: Date
    /// The device's offset from the server's clock (server minus device, ms) when it scanned, if known.
    public var clockOffsetMs: Int64?
    public var arrived: Int
    public var door: String
    /// `camera` or `manual`.
    public var source: String
    /// For a revert: the key of the scan it undoes.
    public var reverts: ScanKey?
    /// The check-in list the door served (issue 51); nil: the event's first (a kiosk from before lists).
    public var list: ListID?

    public init(
        key: ScanKey, guest: GuestID, kind: ScanKind, deviceTime: Date, clockOffsetMs: Int64?,
        arrived: Int, door: String, source: String, reverts: ScanKey? = nil, list: ListID? = nil
    ) {
        self.list = list
        self.key = key
        self.guest = guest
        self.kind = kind
        self.deviceTime = deviceTime
        self.clockOffsetMs = clockOffsetMs
        self.arrived = arrived
        self.door = door
        self.source = source
        self.reverts = reverts
    }
}

/// What the server made of one item; stored with its key, so a repeat of the key gets this same answer.
public struct ScanOutcome: Equatable, Sendable, Codable {
    public enum Kind: String, Sendable, Codable {
        /// This scan is the guest's check-in (or this revert undid it).
        case applied
        /// The guest was checked in earlier (`checkIn`); this scan is kept as a check-in event.
        case superseded
        /// A re-confirmation or a revert of a scan that is not the check-in, kept as a check-in event.
        case recorded
        /// Refused for good (`reason`).
        case rejected
    }

    public var kind: Kind
    public var checkIn: CheckInSummary?
    public var reason: String?

    public init(kind: Kind, checkIn: CheckInSummary? = nil, reason: String? = nil) {
        self.kind = kind
        self.checkIn = checkIn
        self.reason = reason
    }
}
