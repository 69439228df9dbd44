import Foundation
import PassFormat

/// A guest as the organizer's own system (a ticket shop, a CRM) sends it by webhook: its own id for the guest
/// and what it knows of them.
public struct ExternalGuest: Equatable, Sendable {
    /// The sender's id for the guest, unique within the event.
    public var reference: String
    public var name: String
    public var email: String?
    public var phone: String?
    public var partySize: Int
    public var ticketType: String?
    public var checkInNote: String?
    public var arrivalAlert: String?

    public init(
        reference: String, name: String, email: String? = nil, phone: String? = nil, partySize: Int = 1,
        ticketType: String? = nil, checkInNote: String? = nil, arrivalAlert: String? = nil
    ) {
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

extension ExternalGuest {
    /// `guest` with what the sender says of them now (the id, event, state and check-in stay).
    public func applied(to guest: Guest) -> Guest {
        var updated = guest
        updated.name = name
        updated.email = email
        updated.phone = phone
        updated.partySize = partySize
        updated.ticketType = ticketType
        updated.checkInNote = checkInNote
        updated.arrivalAlert = arrivalAlert
        return updated
    }

    /// Whether changing `old` to `new` sends the pass again: a new e-mail address, or a first phone for a guest
    /// who had no address.
    public static func reissues(from old: Guest, to new: Guest) -> Bool {
        new.email != old.email || (old.email == nil && new.phone != old.phone)
    }
}

/// What one verified webhook asks for.
public enum GuestWebhookChange: Equatable, Sendable {
    /// Add the guest, or update it when the reference is known.
    case upsert(ExternalGuest)
    case cancel(reference: String)
}

/// What a webhook did. A `webhook-id` seen before does nothing and answers `duplicate`.
public enum GuestWebhookOutcome: Equatable, Sendable {
    case duplicate
    case added(Guest)
    /// `reissued`: the address changed, so the pass goes to the new one (unfinished sends to the old stop).
    case updated(Guest, reissued: Bool)
    case cancelled(Guest)
    /// An update or cancellation of a guest the event does not know, or an update of a cancelled guest.
    case refused(String)

    public var name: String {
        switch self {
        case .duplicate: "duplicate"
        case .added: "added"
        case .updated: "updated"
        case .cancelled: "cancelled"
        case .refused: "refused"
        }
    }
}

/// A tenant's webhook signing secret (`whsec_` and base64). The newest signs nothing here: the sender signs,
/// the server verifies with every secret still valid (the newest, and one replaced less than a day ago).
public struct WebhookSecret: Equatable, Sendable {
    public var secret: String
    public var createdAt: Date

    public init(secret: String, createdAt: Date) {
        self.secret = secret
        self.createdAt = createdAt
    }

    /// How long a replaced secret still verifies, so that the sender can switch over.
    public static let overlap: TimeInterval = 24 * 3600

    /// The secrets that verify at `now`, from newest first (`secrets` newest first).
    public static func valid(_ secrets: [WebhookSecret], now: Date) -> [WebhookSecret] {
        guard let newest = secrets.first else { return [] }
        var valid = [newest]
        for (index, secret) in secrets.enumerated().dropFirst() {
            // Replaced when the next newer one was made.
            let replacedAt = secrets[index - 1].createdAt
            if now.timeIntervalSince(replacedAt) < overlap { valid.append(secret) }
        }
        return valid
    }
}
