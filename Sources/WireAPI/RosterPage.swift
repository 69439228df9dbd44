import struct Foundation.Date

/// A guest row as the server sends it to kiosks (`GET /v1/events/{id}/roster`).
public struct GuestRecord: Codable, Equatable, Sendable {
    /// The 16-character base32 code of the pass (the confirmation code).
    public var id: String
    public var name: String
    public var email: String?
    public var phone: String?
    public var partySize: Int
    public var ticketType: String?
    public var checkInNote: String?
    public var arrivalAlert: String?
    public var status: GuestStatus
    /// Grows with every change of the row; applying an older version than the kiosk has is a no-op.
    public var version: Int64
    /// The guest's one check-in at this event, at whichever door.
    public var checkIn: CheckInSummary?
    /// On a delta's rows: the server's Ed25519 signature (base64) of the row as a kiosk keeps it
    /// (`GuestNotice`), by the tenant's pass-signing key `signedBy`, so the kiosk can pass the change on to its
    /// peers on the venue LAN and they can tell it is the server's.
    public var signature: String?
    public var signedBy: Int?

    public init(
        id: String, name: String, email: String? = nil, phone: String? = nil, partySize: Int = 1,
        ticketType: String? = nil, checkInNote: String? = nil, arrivalAlert: String? = nil,
        status: GuestStatus = .active, version: Int64, checkIn: CheckInSummary? = nil, signature: String? = nil,
        signedBy: Int? = nil
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
        self.version = version
        self.checkIn = checkIn
        self.signature = signature
        self.signedBy = signedBy
    }
}

public enum GuestStatus: String, Codable, Sendable {
    case active, cancelled
}

/// Where and when a guest was checked in (the corrected scan time).
public struct CheckInSummary: Codable, Equatable, Sendable {
    public var door: String
    public var at: Date
    public var arrived: Int
    /// The device whose scan is the check-in, and that scan's queue sequence: a kiosk finds its own admit
    /// displaced by an earlier one at another door (a double entry) when these are not its own.
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

/// A page of the first download or of a delta.
public struct RosterPage: Codable, Equatable, Sendable {
    public var guests: [GuestRecord]
    /// Absent on the last page.
    public var nextPage: String?
    public var complete: Bool
    /// The change cursor: as of the start of a first download, or after the last page of a delta.
    public var changeCursor: String?
    /// Guests in the whole first download, for progress.
    public var total: Int?
    public var serverTime: Date

    public init(
        guests: [GuestRecord], nextPage: String?, complete: Bool, changeCursor: String?, total: Int?,
        serverTime: Date
    ) {
        self.guests = guests
        self.nextPage = nextPage
        self.complete = complete
        self.changeCursor = changeCursor
        self.total = total
        self.serverTime = serverTime
    }

    /// The largest page the server sends.
    public static let maximumSize = 500

    /// The error code (HTTP 400) for a page or change cursor the server did not make (its database was
    /// replaced): the kiosk downloads the roster again.
    public static let unknownCursor = "unknown_cursor"

}
