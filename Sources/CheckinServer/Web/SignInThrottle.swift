import CheckinCore
import Foundation

/// Slows down password guessing, in the database so that every server process shares it: each sign-in
/// attempt is counted before its password is checked, atomically (`CheckinRepository.takeHits`), per account
/// and per client address; past `signInAttemptsPerAccount` or `signInAttemptsPerClient` within the window the
/// attempt is refused (429) and no password is checked. A sign-in that succeeds forgets its account's count.
/// Audit rows of unauthenticated requests are limited per client the same way.
struct SignInThrottle: Sendable {
    let repository: any CheckinRepository
    let limits: EdgeLimits

    /// Counts an attempt for `account` from `client` at `now`; false when it is refused.
    func admits(account: String, client: String, now: Date) async throws -> Bool {
        try await repository.takeHits(
            [
                RateLimit(
                    key: "sign-in:account:" + account, limit: limits.signInAttemptsPerAccount,
                    window: limits.signInWindow),
                RateLimit(
                    key: "sign-in:client:" + client, limit: limits.signInAttemptsPerClient,
                    window: limits.signInWindow),
            ], at: now)
    }

    func succeeded(account: String) async throws {
        try await repository.forgetHits(key: "sign-in:account:" + account)
    }

    /// Whether an audit row for an unauthenticated request from `client` may be written at `now`.
    func mayAudit(client: String, now: Date) async throws -> Bool {
        try await repository.takeHits(
            [RateLimit(key: "audit:client:" + client, limit: limits.unauthenticatedAuditPerMinute, window: 60)],
            at: now)
    }
}
