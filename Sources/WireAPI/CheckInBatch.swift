import struct Foundation.Date

/// The idempotency key of a queued item: the server applies each key once however often it arrives.
public struct ItemKey: Codable, Hashable, Sendable {
    public var deviceId: String
    /// Made when the kiosk's database was made: a re-installed kiosk never reuses a key of its earlier life.
    public var epoch: String
    public var sequence: Int64

    public init(deviceId: String, epoch: String, sequence: Int64) {
        self.deviceId = deviceId
        self.epoch = epoch
        self.sequence = sequence
    }
}

public enum ItemKind: String, Codable, Sendable {
    case checkIn = "check_in"
    case reconfirm
    case revert
    /// A guest let out at an exit door (issue 51).
    case exit
}

/// One queued scan (`POST /v1/events/{id}/check-ins`).
public struct CheckInItem: Codable, Equatable, Sendable {
    public var key: ItemKey
    public var guestId: String
    public var kind: ItemKind
    /// The device's own clock.
    public var scannedAt: Date
    /// The device's offset from the server's clock (server minus device, ms) when it scanned, if known.
    public var clockOffsetMs: Int64?
    public var arrived: Int
    public var door: String
    public var source: String
    /// For a revert: the key of the scan it undoes (the server undoes the check-in only if that scan is it).
    public var reverts: ItemKey?
    /// The check-in list the door served (issue 51); absent: the event's first list.
    public var list: UInt32?

    public init(
        key: ItemKey, guestId: String, kind: ItemKind, scannedAt: Date, clockOffsetMs: Int64?, arrived: Int,
        door: String, source: String, reverts: ItemKey? = nil, list: UInt32? = nil
    ) {
        self.list = list
        self.key = key
        self.guestId = guestId
        self.kind = kind
        self.scannedAt = scannedAt
        self.clockOffsetMs = clockOffsetMs
        self.arrived = arrived
        self.door = door
        self.source = source
        self.reverts = reverts
    }
}

public struct CheckInBatch: Codable, Equatable, Sendable {
    public var items: [CheckInItem]

    public init(items: [CheckInItem]) { self.items = items }

    /// The most items one upload carries.
    public static let maximumSize = 50
}

/// What the server made of one item.
public struct CheckInOutcome: Codable, Equatable, Sendable {
    public enum Kind: String, Codable, Sendable {
        /// This scan is the guest's check-in (or this revert undid it).
        case applied
        /// The guest was checked in earlier elsewhere (`checkIn`); this scan is kept as a check-in event.
        case superseded
        /// A re-confirmation, kept as a check-in event.
        case recorded
        /// Refused for good (`reason`): the kiosk moves it to its sync failures.
        case rejected
    }

    public var sequence: Int64
    public var outcome: Kind
    public var checkIn: CheckInSummary?
    public var reason: String?

    public init(sequence: Int64, outcome: Kind, checkIn: CheckInSummary? = nil, reason: String? = nil) {
        self.sequence = sequence
        self.outcome = outcome
        self.checkIn = checkIn
        self.reason = reason
    }
}

public struct CheckInBatchResult: Codable, Equatable, Sendable {
    public var outcomes: [CheckInOutcome]
    public var serverTime: Date

    public init(outcomes: [CheckInOutcome], serverTime: Date) {
        self.outcomes = outcomes
        self.serverTime = serverTime
    }
}
