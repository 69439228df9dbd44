import CheckinAdmin
import CheckinCore
import Foundation

/// Slows down password guessing, in the database so that every server process shares it: each sign-in
/// attempt is counted before its password is checked, atomically (`CheckinRepository.takeHits`), per account
/// from one client address, per account from anywhere and per client address; past a limit within the window
/// the attempt is refused (429) and no password is checked. A stranger guessing from elsewhere does not lock
/// the organizer out where they are (only the account's much higher ceiling does that, and `checkin-server
/// unlock-organizer` lifts it). A sign-in that succeeds forgets its count from that client. Audit rows of
/// unauthenticated requests are limited per client the same way.
struct SignInThrottle: Sendable {
    let repository: any CheckinRepository
    let limits: EdgeLimits

    /// Counts an attempt for `account` from `client` at `now`; false when it is refused.
    func admits(account: String, client: String, now: Date) async throws -> Bool {
        try await repository.takeHits(
            [
                RateLimit(
                    key: SignInKeys.pair(account, client), limit: limits.signInAttemptsPerAccountAndClient,
                    window: limits.signInWindow),
                RateLimit(
                    key: SignInKeys.account(account), limit: limits.signInAttemptsPerAccount,
                    window: limits.signInWindow),
                RateLimit(
                    key: "sign-in:client:" + client, limit: limits.signInAttemptsPerClient,
                    window: limits.signInWindow),
            ], at: now)
    }

    /// The attempts `account` has left from `client` before sign-in pauses there.
    func attemptsLeft(account: String, client: String, now: Date) async throws -> Int {
        let used = try await repository.hitCount(key: SignInKeys.pair(account, client), at: now)
        return max(0, limits.signInAttemptsPerAccountAndClient - used)
    }

    /// A success forgets the account's count from this client (a stranger's elsewhere stays).
    func succeeded(account: String, client: String) async throws {
        try await repository.forgetHits(key: SignInKeys.pair(account, client))
    }

    /// Forgets every count of the account, from every client (a success, or an operator's unlock).
    func unlock(account: String) async throws {
        try await SignInKeys.forgetAll(of: account, in: repository)
    }

    /// Counts a password-reset request from `client`: at most 10 an hour.
    func admitsResetRequest(client: String, now: Date) async throws -> Bool {
        try await repository.takeHits([RateLimit(key: "reset:client:" + client, limit: 10, window: 3600)], at: now)
    }

    /// Counts a reset e-mail to `account`: at most 3 an hour, whoever asks.
    func admitsResetMail(account: String, now: Date) async throws -> Bool {
        try await repository.takeHits([RateLimit(key: "reset:account:" + account, limit: 3, window: 3600)], at: now)
    }
}
