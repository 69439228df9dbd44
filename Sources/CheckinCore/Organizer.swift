import Foundation
import PassFormat

/// A person who signs in to the organizer's web pages of one tenant. Only a slow, salted hash of the password
/// is kept (bcrypt, made by the server).
public struct Organizer: Equatable, Sendable {
    public var id: Int64
    public var tenant: TenantID
    /// Lowercased: one account per address, whatever the tenant.
    public var email: String
    public var name: String
    public var passwordHash: String
    public var createdAt: Date

    public init(id: Int64, tenant: TenantID, email: String, name: String, passwordHash: String, createdAt: Date) {
        self.id = id
        self.tenant = tenant
        self.email = email
        self.name = name
        self.passwordHash = passwordHash
        self.createdAt = createdAt
    }

    /// The form addresses are compared in: trimmed, lowercased.
    public static func normalizedEmail(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
}

/// A signed-in browser. The cookie holds a random token; only its SHA-256 (hex) is stored. Every form of the
/// session carries `csrfToken`.
public struct WebSession: Equatable, Sendable {
    public var tokenHash: String
    public var organizer: Int64
    public var csrfToken: String
    public var createdAt: Date
    public var expiresAt: Date

    public init(tokenHash: String, organizer: Int64, csrfToken: String, createdAt: Date, expiresAt: Date) {
        self.tokenHash = tokenHash
        self.organizer = organizer
        self.csrfToken = csrfToken
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// How long a sign-in lasts: an event day and its set-up.
    public static let lifetime: TimeInterval = 12 * 3600
}

/// What creating an account needs (the server hashes the password first).
public struct NewOrganizer: Equatable, Sendable {
    public var tenant: TenantID
    public var email: String
    public var name: String
    public var passwordHash: String

    public init(tenant: TenantID, email: String, name: String, passwordHash: String) {
        self.tenant = tenant
        self.email = Organizer.normalizedEmail(email)
        self.name = name
        self.passwordHash = passwordHash
    }
}
