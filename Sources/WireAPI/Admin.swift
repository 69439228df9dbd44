import struct Foundation.Date

// The admin endpoints' bodies (`/v1/admin/...`, docs/api/openapi.yaml).

public struct TenantInput: Codable, Equatable, Sendable {
    public var name: String
    public init(name: String) { self.name = name }
}

public struct TenantInfo: Codable, Equatable, Sendable {
    public var id: UInt32
    public var name: String
    public init(id: UInt32, name: String) {
        self.id = id
        self.name = name
    }
}

/// `EventInput`: what creates an event.
public struct EventInput: Codable, Equatable, Sendable {
    public var name: String
    public var venue: String?
    public var opsContact: String?
    public var startsAt: Date
    public var endsAt: Date
    public var graceMinutes: Int?
    public var minimumKioskVersion: String?
    /// The IANA time zone of the venue ("Europe/Berlin").
    public var timeZone: String?

    public init(
        name: String, venue: String? = nil, opsContact: String? = nil, startsAt: Date, endsAt: Date,
        graceMinutes: Int? = nil, minimumKioskVersion: String? = nil,
        timeZone: String? = nil
    ) {
        self.name = name
        self.venue = venue
        self.opsContact = opsContact
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.graceMinutes = graceMinutes
        self.minimumKioskVersion = minimumKioskVersion
        self.timeZone = timeZone
    }
}

/// `GuestInput`: a guest to add (a walk-in, say).
public struct GuestInput: Codable, Equatable, Sendable {
    public var name: String
    public var email: String?
    public var phone: String?
    public var partySize: Int?
    public var ticketType: String?
    public var checkInNote: String?
    public var arrivalAlert: String?
    /// The ticket type under its name from before ticket types (issue 51), still read; `ticketType` wins.
    public var accessType: String?

    /// The ticket type given, under either name.
    public var givenTicketType: String? { ticketType ?? accessType }

    public init(
        name: String, email: String? = nil, phone: String? = nil, partySize: Int? = nil,
        ticketType: String? = nil, checkInNote: String? = nil, arrivalAlert: String? = nil
    ) {
        self.name = name
        self.email = email
        self.phone = phone
        self.partySize = partySize
        self.ticketType = ticketType
        self.checkInNote = checkInNote
        self.arrivalAlert = arrivalAlert
    }
}

public struct EnrolmentCodeRequest: Codable, Equatable, Sendable {
    public var replacesDevice: String?
    /// The check-in list the kiosk will serve (absent: the event's first) and its direction (absent: `entry`).
    public var list: UInt32?
    public var direction: String?
    public init(replacesDevice: String? = nil, list: UInt32? = nil, direction: String? = nil) {
        self.replacesDevice = replacesDevice
        self.list = list
        self.direction = direction
    }
}

/// A new enrolment code: shown once, the server keeps only its SHA-256.
public struct EnrolmentCodeAnswer: Codable, Equatable, Sendable {
    public var code: String
    public var expiresAt: Date
    public init(code: String, expiresAt: Date) {
        self.code = code
        self.expiresAt = expiresAt
    }
}

public struct ImportAnswer: Codable, Equatable, Sendable {
    /// Guests added.
    public var imported: Int
    /// Guests the file named by `guest_id` or e-mail, given its values.
    public var updated: Int
    /// Lines that named a guest and changed nothing.
    public var unchanged: Int
    public init(imported: Int, updated: Int = 0, unchanged: Int = 0) {
        self.imported = imported
        self.updated = updated
        self.unchanged = unchanged
    }
}

/// `ListInput`: what makes or changes a check-in list (issue 51). Absent rules do not limit.
public struct ListInput: Codable, Equatable, Sendable {
    public var name: String
    /// The ticket types admitted; absent or empty: every type.
    public var ticketTypes: [String]?
    public var opensAt: Date?
    public var closesAt: Date?
    public var maxEntries: Int?
    public var maxPerDay: Int?
    public var minMinutesBetweenEntries: Int?
    /// Whether a guest who left may come in again (absent: yes).
    public var allowsReentry: Bool?
    /// So many inside at once warns the organizer.
    public var capacity: Int?

    public init(
        name: String, ticketTypes: [String]? = nil, opensAt: Date? = nil, closesAt: Date? = nil,
        maxEntries: Int? = nil, maxPerDay: Int? = nil, minMinutesBetweenEntries: Int? = nil,
        allowsReentry: Bool? = nil, capacity: Int? = nil
    ) {
        self.name = name
        self.ticketTypes = ticketTypes
        self.opensAt = opensAt
        self.closesAt = closesAt
        self.maxEntries = maxEntries
        self.maxPerDay = maxPerDay
        self.minMinutesBetweenEntries = minMinutesBetweenEntries
        self.allowsReentry = allowsReentry
        self.capacity = capacity
    }
}

/// `ListInfo`: a check-in list as the admin API shows it.
public struct ListInfo: Codable, Equatable, Sendable {
    public var id: UInt32
    public var event: UInt32
    public var name: String
    /// Absent: every ticket type.
    public var ticketTypes: [String]?
    public var opensAt: Date?
    public var closesAt: Date?
    public var maxEntries: Int?
    public var maxPerDay: Int?
    public var minMinutesBetweenEntries: Int?
    public var allowsReentry: Bool
    public var capacity: Int?
    /// One more at each change; doors decide with the version they hold.
    public var version: Int

    public init(
        id: UInt32, event: UInt32, name: String, ticketTypes: [String]?, opensAt: Date?, closesAt: Date?,
        maxEntries: Int?, maxPerDay: Int?, minMinutesBetweenEntries: Int?, allowsReentry: Bool, capacity: Int?,
        version: Int
    ) {
        self.id = id
        self.event = event
        self.name = name
        self.ticketTypes = ticketTypes
        self.opensAt = opensAt
        self.closesAt = closesAt
        self.maxEntries = maxEntries
        self.maxPerDay = maxPerDay
        self.minMinutesBetweenEntries = minMinutesBetweenEntries
        self.allowsReentry = allowsReentry
        self.capacity = capacity
        self.version = version
    }
}

/// `GateInput`: the list a device serves and its direction (`entry` or `exit`); absent list: the event's first.
public struct GateInput: Codable, Equatable, Sendable {
    public var list: UInt32?
    public var direction: String?
    public init(list: UInt32? = nil, direction: String? = nil) {
        self.list = list
        self.direction = direction
    }
}
