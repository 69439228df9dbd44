import Foundation
import PassFormat

/// The tenants' signing keys and the durable pass-issuance workflow.
/// One role of `CheckinRepository`.
public protocol IssuanceRepository: Sendable {
    /// Adding a guest with an e-mail or a phone (`addGuests`, `applyGuestWebhook`) starts an issuance in the same
    /// transaction; cancelling the guest cancels its unfinished ones.

    /// The tenant's newest signing key; when it has none, `candidate` becomes its first (of several processes
    /// racing, one candidate wins and every one gets it).
    func signingKey(tenant: TenantID, orAdd candidate: NewSigningKey, at time: Date) async throws -> SigningKey
    /// Adds a key that signs from now on (rotation). Throws `notFound` for an unknown tenant.
    func addSigningKey(_ key: NewSigningKey, tenant: TenantID, at time: Date) async throws -> SigningKey
    /// Newest first.
    func signingKeys(tenant: TenantID) async throws -> [SigningKey]
    /// Takes the issuance due first (`nextAttemptAt` at or before `now`) that no other worker holds, runs
    /// `perform` on it with its guest (nil when gone), stores the result and returns the issuance as stored;
    /// nil when none is due. No two workers, of this process or another, run the same issuance at once. A
    /// `perform` that throws leaves the issuance as it was.
    func runNextIssuanceStep(
        now: Date, _ perform: @Sendable (PassIssuance, Guest?) async throws -> IssuanceStepResult
    ) async throws -> PassIssuance?
    /// When the next pending issuance is due, if any.
    func nextIssuanceDue() async throws -> Date?
    /// The event's issuances, newest first, at most `limit`; only those with an error when `problemsOnly`.
    func issuances(event: EventID, problemsOnly: Bool, limit: Int) async throws -> [PassIssuance]
    func issuances(guest: GuestID, event: EventID) async throws -> [PassIssuance]
    /// Sends the guest's pass again: unfinished issuances stop and a new one starts. False when the guest is
    /// cancelled or has no e-mail or phone to send it to. Throws `notFound` for a guest the event does not have.
    func resendPass(_ id: GuestID, event: EventID, at time: Date) async throws -> Bool
    /// A failed issuance runs its failed step again now, with its attempts reset. Throws `notFound` unless the
    /// event has that issuance in `failed`.
    func retryIssuance(_ id: String, event: EventID, at time: Date) async throws -> PassIssuance
}
