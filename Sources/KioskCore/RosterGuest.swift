import PassFormat

import struct Foundation.Date

/// A guest on the local roster.
public struct RosterGuest: Hashable, Sendable {
    public enum Status: String, Sendable, CaseIterable {
        case active
        case cancelled
    }

    /// The party sizes a roster may hold: staff confirm arrivals with up to three digits.
    public static let partySizes = 1...999

    public var guest: GuestID
    public var tenant: TenantID
    public var event: EventID
    public var name: String
    public var email: String
    public var partySize: Int
    public var status: Status
    public var notes: String

    public init(
        guest: GuestID, tenant: TenantID, event: EventID, name: String, email: String = "",
        partySize: Int = 1, status: Status = .active, notes: String = ""
    ) {
        self.guest = guest
        self.tenant = tenant
        self.event = event
        self.name = name
        self.email = email
        self.partySize = partySize
        self.status = status
        self.notes = notes
    }

    public var summary: GuestSummary {
        GuestSummary(guest: guest, name: name, partySize: partySize, notes: notes)
    }
}

/// What the door shows about a guest.
public struct GuestSummary: Hashable, Sendable {
    public var guest: GuestID
    public var name: String
    public var partySize: Int
    public var notes: String

    public init(guest: GuestID, name: String, partySize: Int, notes: String) {
        self.guest = guest
        self.name = name
        self.partySize = partySize
        self.notes = notes
    }
}
