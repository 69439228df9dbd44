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

extension RosterGuest {
    /// A server's roster row as the kiosk keeps it: the notes join the ticket type, the check-in note and the
    /// arrival alert, the party size is held to `partySizes`. The server signs what this makes (`GuestNotice`),
    /// so the kiosk and the server make it alike. Nil when `id` is not a pass code.
    public init?(
        serverRow id: String, tenant: TenantID, event: EventID, name: String, email: String?, partySize: Int,
        ticketType: String?, checkInNote: String?, arrivalAlert: String?, cancelled: Bool
    ) {
        guard let guest = GuestID(text: id) else { return nil }
        let notes = [ticketType, checkInNote, arrivalAlert.map { "ALERT: \($0)" }]
            .compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: " · ")
        self.init(
            guest: guest, tenant: tenant, event: event, name: name, email: email ?? "",
            partySize: min(max(partySize, Self.partySizes.lowerBound), Self.partySizes.upperBound),
            status: cancelled ? .cancelled : .active, notes: notes)
    }
}
