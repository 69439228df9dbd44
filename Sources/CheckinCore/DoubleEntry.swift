import Foundation
import PassFormat

/// A guest admitted at two doors (or twice): the guest's check-in, the earliest scan, and a later admitting
/// scan that was superseded, neither reverted. One a superseded scan: three doors make two.
public struct DoubleEntry: Equatable, Sendable {
    public var guest: GuestID
    public var guestName: String
    /// The guest's check-in (the earliest corrected scan).
    public var checkInDoor: String
    public var checkInAt: Date
    /// The other admit, kept as a superseded scan.
    public var otherDoor: String
    public var otherAt: Date
    public var otherKey: ScanKey

    public init(
        guest: GuestID, guestName: String, checkInDoor: String, checkInAt: Date, otherDoor: String, otherAt: Date,
        otherKey: ScanKey
    ) {
        self.guest = guest
        self.guestName = guestName
        self.checkInDoor = checkInDoor
        self.checkInAt = checkInAt
        self.otherDoor = otherDoor
        self.otherAt = otherAt
        self.otherKey = otherKey
    }

    /// Seconds from the check-in to the other admit (corrected times).
    public var gapSeconds: Double { otherAt.timeIntervalSince(checkInAt) }
}
