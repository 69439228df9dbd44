import Foundation
import PassFormat

/// Organizers, their web sessions and password resets.
/// One role of `CheckinRepository`.
public protocol OrganizerRepository: Sendable {
    /// Throws `duplicateOrganizer` when the address has an account, `notFound` when the tenant does not exist.
    func createOrganizer(_ organizer: NewOrganizer, at time: Date) async throws -> Organizer
    /// By normalised address.
    func organizer(email: String) async throws -> Organizer?
    func createWebSession(_ session: WebSession) async throws
    /// The session with this token hash and its organizer, expired or not.
    func webSession(tokenHash: String) async throws -> (WebSession, Organizer)?
    func deleteWebSession(tokenHash: String) async throws
    /// Gives the organizer a new password hash and ends every session of theirs but `keeping` (the one that
    /// changed it), in one transaction. Throws `notFound` for an organizer that does not exist.
    func setOrganizerPassword(_ organizer: Int64, passwordHash: String, keeping tokenHash: String?) async throws
    /// Forgets the sessions that expired before `time`.
    func deleteExpiredWebSessions(before time: Date) async throws
    /// Keeps a password-reset link (its token's hash) for the organizer until `expiresAt`.
    func createPasswordReset(organizer: Int64, tokenHash: String, expiresAt: Date) async throws
    /// The organizer of a live reset link (unused, not expired at `time`); nil otherwise.
    func passwordResetOrganizer(tokenHash: String, at time: Date) async throws -> Organizer?
    /// Uses a live reset link, once: in one transaction every reset link of its organizer is deleted, the new
    /// password hash set and every session of theirs ended. Nil, with nothing changed, when the link is unknown,
    /// used or expired at `time` (of two uses at once, one wins).
    func redeemPasswordReset(tokenHash: String, passwordHash: String, at time: Date) async throws -> Organizer?
}
