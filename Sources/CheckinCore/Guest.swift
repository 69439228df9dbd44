import Foundation
import PassFormat

public enum GuestState: String, Sendable, Codable {
    case active, cancelled
}

/// A guest of one event. `id` is the pass's guest id; its base32 text is the confirmation code.
public struct Guest: Equatable, Sendable {
    public var id: GuestID
    public var event: EventID
    public var name: String
    public var email: String?
    public var phone: String?
    public var partySize: Int
    public var ticketType: String?
    public var checkInNote: String?
    public var arrivalAlert: String?
    public var status: GuestState
    /// Grows with every change of what a kiosk sees of the row, its check-in included.
    public var version: Int64
    /// The guest's one check-in at this event, if any.
    public var checkIn: CheckInSummary?

    public init(
        id: GuestID, event: EventID, name: String, email: String? = nil, phone: String? = nil,
        partySize: Int = 1, ticketType: String? = nil, checkInNote: String? = nil,
        arrivalAlert: String? = nil, status: GuestState = .active, version: Int64 = 1,
        checkIn: CheckInSummary? = nil
    ) {
        self.id = id
        self.event = event
        self.name = name
        self.email = email
        self.phone = phone
        self.partySize = partySize
        self.ticketType = ticketType
        self.checkInNote = checkInNote
        self.arrivalAlert = arrivalAlert
        self.status = status
        self.version = version
        self.checkIn = checkIn
    }
}

/// A guest to add: an imported line or a walk-in. `id` is made at random when not given.
public struct NewGuest: Equatable, Sendable {
    public var id: GuestID
    public var name: String
    public var email: String?
    public var phone: String?
    public var partySize: Int
    public var ticketType: String?
    public var checkInNote: String?
    public var arrivalAlert: String?
    /// `cancelled` imports a tombstone (a roster exported with its cancellations).
    public var status: GuestState

    public init(
        id: GuestID = .random(), name: String, email: String? = nil, phone: String? = nil,
        partySize: Int = 1, ticketType: String? = nil, checkInNote: String? = nil,
        arrivalAlert: String? = nil, status: GuestState = .active
    ) {
        self.id = id
        self.name = name
        self.email = email
        self.phone = phone
        self.partySize = partySize
        self.ticketType = ticketType
        self.checkInNote = checkInNote
        self.arrivalAlert = arrivalAlert
        self.status = status
    }
}

/// Where and when a guest was checked in: the door and the corrected scan time.
public struct CheckInSummary: Equatable, Sendable, Codable {
    public var door: String
    public var at: Date
    public var arrived: Int
    /// The device and queue sequence of the scan that is the check-in: a kiosk tells its own scan from another
    /// door's (its own admit displaced by an earlier one elsewhere is a double entry).
    public var deviceId: String?
    public var sequence: Int64?

    public init(door: String, at: Date, arrived: Int, deviceId: String? = nil, sequence: Int64? = nil) {
        self.door = door
        self.at = at
        self.arrived = arrived
        self.deviceId = deviceId
        self.sequence = sequence
    }
}
