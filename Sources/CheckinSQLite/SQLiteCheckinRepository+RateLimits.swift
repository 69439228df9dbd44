import CheckinCore
import Foundation
import GRDB

extension SQLiteCheckinRepository {
    public func takeHits(_ limits: [RateLimit], at time: Date) async throws -> Bool {
        try await writer.writeWithoutTransaction { db in
            var taken = false
            // IMMEDIATE: the write lock before the count, so another connection (or process) on the same file
            // cannot count the same hits meanwhile.
            try db.inTransaction(.immediate) {
                try db.execute(sql: "DELETE FROM rate_limit_hit WHERE expires_at <= ?", arguments: [time])
                for limit in limits {
                    let held =
                        try Int.fetchOne(
                            db, sql: "SELECT COUNT(*) FROM rate_limit_hit WHERE key = ?", arguments: [limit.storedKey])
                        ?? 0
                    if held >= limit.limit { return .commit }
                }
                for limit in limits {
                    try db.execute(
                        sql: "INSERT INTO rate_limit_hit (key, expires_at) VALUES (?, ?)",
                        arguments: [limit.storedKey, time.addingTimeInterval(limit.window)])
                }
                taken = true
                return .commit
            }
            return taken
        }
    }

    public func hitCount(key: String, at time: Date) async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM rate_limit_hit WHERE key = ? AND expires_at > ?",
                arguments: [RateLimit(key: key, limit: 0, window: 0).storedKey, time]) ?? 0
        }
    }

    public func forgetHits(keysStartingWith prefix: String) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "DELETE FROM rate_limit_hit WHERE substr(key, 1, length(?1)) = ?1", arguments: [prefix])
        }
    }

    public func forgetHits(key: String) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "DELETE FROM rate_limit_hit WHERE key = ?",
                arguments: [String(key.prefix(RateLimit.maximumKeyLength))])
        }
    }
}
