import CheckinCore
import Foundation
import HummingbirdBcrypt
import PassFormat

extension CheckinAdmin {
    /// The shortest password an organizer may have.
    public static let minimumPasswordLength = 10

    /// Creates an organizer's sign-in for the tenant's web pages; the password is kept only as a bcrypt hash
    /// (cost 12).
    public func createOrganizer(tenant: TenantID, email: String, name: String, password: String) async throws
        -> Organizer
    {
        let address = Organizer.normalizedEmail(email)
        guard address.contains("@"), !address.contains(" "), address.count <= 254 else {
            throw Failure.invalid("'\(email)' is not an e-mail address")
        }
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw Failure.invalid("the organizer's name is empty")
        }
        guard password.count >= Self.minimumPasswordLength else {
            throw Failure.invalid("the password is shorter than \(Self.minimumPasswordLength) characters")
        }
        do {
            let organizer = try await repository.createOrganizer(
                NewOrganizer(
                    tenant: tenant, email: address, name: name, passwordHash: Bcrypt.hash(password, cost: 12)),
                at: clock.now())
            try await audit(tenant, "organizer_created", "organizer \(address)")
            return organizer
        } catch RepositoryError.notFound {
            throw Failure.notFound("tenant \(tenant)")
        } catch RepositoryError.duplicateOrganizer(let address) {
            throw Failure.invalid(
                "\(address) already has an account; if they are locked out after wrong passwords: "
                    + "checkin-server unlock-organizer --email \(address); for a new password: "
                    + "checkin-server set-organizer-password --email \(address)")
        }
    }

    /// Sets an organizer's password (bcrypt, cost 12) and ends their other sessions: an operator's reset
    /// (`checkin-server set-organizer-password`) or the organizer's own change (`keeping` their session).
    public func setOrganizerPassword(email: String, password: String, keeping tokenHash: String? = nil) async throws
        -> Organizer
    {
        let address = Organizer.normalizedEmail(email)
        guard let organizer = try await repository.organizer(email: address) else {
            throw Failure.notFound("an organizer with the address \(address)")
        }
        guard password.count >= Self.minimumPasswordLength else {
            throw Failure.invalid("the password is shorter than \(Self.minimumPasswordLength) characters")
        }
        try await repository.setOrganizerPassword(
            organizer.id, passwordHash: Bcrypt.hash(password, cost: 12), keeping: tokenHash)
        try await audit(organizer.tenant, "organizer_password_set", "organizer \(address)")
        return organizer
    }

    /// Sets a new password through a live reset link (its token's hash), which it uses up; every session of the
    /// organizer ends. Nil when the link is unknown, used or expired.
    public func resetOrganizerPassword(tokenHash: String, password: String) async throws -> Organizer? {
        guard password.count >= Self.minimumPasswordLength else {
            throw Failure.invalid("the password is shorter than \(Self.minimumPasswordLength) characters")
        }
        let hash = Bcrypt.hash(password, cost: 12)
        guard
            let organizer = try await repository.redeemPasswordReset(
                tokenHash: tokenHash, passwordHash: hash, at: clock.now())
        else { return nil }
        try await audit(organizer.tenant, "organizer_password_reset", "organizer \(organizer.email) by e-mail link")
        return organizer
    }

    /// Lifts the sign-in pause of an organizer locked out by wrong passwords, from every address at once.
    public func unlockOrganizer(email: String) async throws -> Organizer {
        let address = Organizer.normalizedEmail(email)
        guard let organizer = try await repository.organizer(email: address) else {
            throw Failure.notFound("an organizer with the address \(address)")
        }
        try await SignInKeys.forgetAll(of: address, in: repository)
        try await audit(organizer.tenant, "organizer_unlocked", "organizer \(address)")
        return organizer
    }
}
