import Foundation
import PassFormat

/// The hit counters that rate limits take from.
/// One role of `CheckinRepository`.
public protocol RateLimitRepository: Sendable {
    /// Takes one hit at `time` under every limit's key (each kept until `time + window`), in one transaction,
    /// unless a key already holds `limit` hits younger than its window: then nothing is taken and the answer is
    /// false. Processes sharing the database share the counts; parallel callers never take more than `limit`.
    func takeHits(_ limits: [RateLimit], at time: Date) async throws -> Bool
    /// Forgets every hit under `key` (a sign-in that succeeded clears its account's failures).
    func forgetHits(key: String) async throws
    /// How many hits under `key` are younger than their window at `time` (what a warning counts down from).
    func hitCount(key: String, at time: Date) async throws -> Int
    /// Forgets every hit under a key that starts with `prefix` (an operator unlocking an account).
    func forgetHits(keysStartingWith prefix: String) async throws
}
