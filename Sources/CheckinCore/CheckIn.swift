import EntryRules
import Foundation
import PassFormat

/// A guest's one check-in at an event: the scan with the earliest corrected time that was not reverted.
public struct CheckIn: Equatable, Sendable {
    public var event: EventID
    public var guest: GuestID
    /// The key of the scan that is the check-in.
    public var scanKey: ScanKey
    public var door: String
    public var deviceTime: Date
    public var correctedTime: Date
    public var receivedAt: Date
    public var arrived: Int
    /// The list it is the check-in of (nil: read where only the first list's are, the `check_in` view).
    public var list: ListID?

    public init(
        event: EventID, guest: GuestID, scanKey: ScanKey, door: String, deviceTime: Date,
        correctedTime: Date, receivedAt: Date, arrived: Int, list: ListID? = nil
    ) {
        self.list = list
        self.event = event
        self.guest = guest
        self.scanKey = scanKey
        self.door = door
        self.deviceTime = deviceTime
        self.correctedTime = correctedTime
        self.receivedAt = receivedAt
        self.arrived = arrived
    }

    public var summary: CheckInSummary {
        CheckInSummary(
            door: door, at: correctedTime, arrived: arrived, deviceId: scanKey.deviceId, sequence: scanKey.sequence)
    }
}

/// Every scan that reached the server, whatever it did: the first, repeats from other doors,
/// re-confirmations, reverts, refused ones.
public struct CheckInEvent: Equatable, Sendable {
    public var event: EventID
    public var guest: String
    public var key: ScanKey
    public var kind: ScanKind
    public var door: String
    public var source: String
    public var deviceTime: Date
    public var correctedTime: Date
    public var receivedAt: Date
    public var arrived: Int
    public var outcome: ScanOutcome.Kind
    public var reason: String?
    public var reverts: ScanKey?
    /// The list the scan was made for (issue 51; nil only in rows read from before lists).
    public var list: ListID?

    public init(
        event: EventID, guest: String, key: ScanKey, kind: ScanKind, door: String, source: String,
        deviceTime: Date, correctedTime: Date, receivedAt: Date, arrived: Int, outcome: ScanOutcome.Kind,
        reason: String? = nil, reverts: ScanKey? = nil, list: ListID? = nil
    ) {
        self.list = list
        self.event = event
        self.guest = guest
        self.key = key
        self.kind = kind
        self.door = door
        self.source = source
        self.deviceTime = deviceTime
        self.correctedTime = correctedTime
        self.receivedAt = receivedAt
        self.arrived = arrived
        self.outcome = outcome
        self.reason = reason
        self.reverts = reverts
    }
}
