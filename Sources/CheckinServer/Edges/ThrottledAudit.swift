import CheckinAdmin
import CheckinCore
import Foundation

/// Audit rows of requests refused before the server knows who sent them, or from a credential it no longer
/// honours: a refused sign-in or form, an unsigned webhook, a revoked device token. Anyone can send those as fast
/// as they like, so at most `EdgeLimits.unauthenticatedAuditPerMinute` rows are written per key (a client address,
/// a device) and minute; beyond that the request is counted in the rate table, not written.
struct ThrottledAudit: Sendable {
    let repository: any CheckinRepository
    let clock: any ServerClock
    let limits: EdgeLimits

    /// Writes `entry` unless `key` already wrote its rows this minute.
    func append(_ entry: AuditEntry, key: String) async throws {
        let admitted = try await repository.takeHits(
            [RateLimit(key: "audit:" + key, limit: limits.unauthenticatedAuditPerMinute, window: 60)], at: clock.now())
        guard admitted else { return }
        try await repository.appendAudit(entry)
    }
}
