import struct Foundation.Date

/// The body of a guest webhook from the organizer's own system (`POST /v1/webhooks/tenants/{tenant}/guests`),
/// signed as Standard Webhooks says: `{"type": "guest.created" | "guest.updated" | "guest.cancelled",
/// "timestamp": ..., "data": {...}}`.
public struct GuestWebhookPayload: Codable, Equatable, Sendable {
    public var type: String
    public var timestamp: Date?
    public var data: GuestWebhookData

    public static let types = ["guest.created", "guest.updated", "guest.cancelled"]

    public init(type: String, timestamp: Date? = nil, data: GuestWebhookData) {
        self.type = type
        self.timestamp = timestamp
        self.data = data
    }
}

/// The guest as the sender knows it; `reference` is the sender's own id for the guest, unique in the event.
public struct GuestWebhookData: Codable, Equatable, Sendable {
    public var eventId: UInt32
    public var reference: String
    public var name: String?
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
        eventId: UInt32, reference: String, name: String? = nil, email: String? = nil, phone: String? = nil,
        partySize: Int? = nil, ticketType: String? = nil, checkInNote: String? = nil, arrivalAlert: String? = nil
    ) {
        self.eventId = eventId
        self.reference = reference
        self.name = name
        self.email = email
        self.phone = phone
        self.partySize = partySize
        self.ticketType = ticketType
        self.checkInNote = checkInNote
        self.arrivalAlert = arrivalAlert
    }
}

/// The answer: what the webhook did (`added`, `updated`, `cancelled`, `duplicate` for a `webhook-id` seen
/// before, `refused` with the reason).
public struct GuestWebhookResult: Codable, Equatable, Sendable {
    public var outcome: String
    public var guestId: String?
    public var confirmationCode: String?
    /// Whether the pass goes out again (a new address).
    public var reissued: Bool?
    public var message: String?

    public init(
        outcome: String, guestId: String? = nil, confirmationCode: String? = nil, reissued: Bool? = nil,
        message: String? = nil
    ) {
        self.outcome = outcome
        self.guestId = guestId
        self.confirmationCode = confirmationCode
        self.reissued = reissued
        self.message = message
    }
}
