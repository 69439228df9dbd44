import CheckinCore
import Foundation
import PostgresNIO

extension PostgresCheckinRepository {
    public func takeHits(_ limits: [RateLimit], at time: Date) async throws -> Bool {
        try await transaction { connection in
            // One advisory lock per key (in a fixed order: no deadlock), held to the commit: processes counting
            // the same key take turns, so none counts hits another is about to add.
            for key in Set(limits.map(\.storedKey)).sorted() {
                _ = try await connection.query(
                    "SELECT pg_advisory_xact_lock(hashtextextended(\(key), \(Self.rateLimitLockSeed)))", logger: logger
                ).collect()
            }
            try await connection.query("DELETE FROM rate_limit_hit WHERE expires_at <= \(time)", logger: logger)
            for limit in limits {
                let rows = try await connection.query(
                    "SELECT COUNT(*) FROM rate_limit_hit WHERE key = \(limit.storedKey)", logger: logger
                ).collect()
                let held = try rows.first?.decode(Int64.self) ?? 0
                if held >= Int64(limit.limit) { return false }
            }
            for limit in limits {
                try await connection.query(
                    """
                    INSERT INTO rate_limit_hit (key, expires_at)
                    VALUES (\(limit.storedKey), \(time.addingTimeInterval(limit.window)))
                    """, logger: logger)
            }
            return true
        }
    }

    public func hitCount(key: String, at time: Date) async throws -> Int {
        let stored = RateLimit(key: key, limit: 0, window: 0).storedKey
        let rows = try await rows(
            "SELECT COUNT(*) AS n FROM rate_limit_hit WHERE key = \(stored) AND expires_at > \(time)")
        return Int(try rows.first?["n"].decode(Int64.self) ?? 0)
    }

    public func forgetHits(keysStartingWith prefix: String) async throws {
        _ = try await rows("DELETE FROM rate_limit_hit WHERE starts_with(key, \(prefix))")
    }

    public func forgetHits(key: String) async throws {
        _ = try await rows("DELETE FROM rate_limit_hit WHERE key = \(String(key.prefix(RateLimit.maximumKeyLength)))")
    }

    /// Mixed into the rate-limit keys' advisory locks, apart from the migrations' lock.
    static let rateLimitLockSeed: Int64 = 0x7261_7465
}
