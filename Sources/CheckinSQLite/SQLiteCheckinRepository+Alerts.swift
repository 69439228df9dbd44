import CheckinCore
import Foundation
import GRDB
import PassFormat

extension SQLiteCheckinRepository {
    public func setOfflineAlerts(_ settings: OfflineAlertSettings, event: EventID, at time: Date) async throws {
        try await writer.write { db in
            guard try EventRow.exists(db, key: Int64(event.rawValue)) else {
                throw RepositoryError.notFound("event \(event)")
            }
            try db.execute(
                sql: """
                    INSERT INTO offline_alert (event_id, email, webhook_url, webhook_secret, updated_at)
                    VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (event_id) DO UPDATE SET email = excluded.email, webhook_url = excluded.webhook_url,
                        webhook_secret = excluded.webhook_secret, updated_at = excluded.updated_at
                    """,
                arguments: [
                    Int64(event.rawValue), settings.email, settings.webhookURL,
                    try settings.webhookSecret.map { try self.sealSecret($0, .offlineAlertSecret(event: event)) }, time,
                ])
        }
    }

    public func offlineAlerts(event: EventID) async throws -> OfflineAlertSettings {
        try await writer.read { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM offline_alert WHERE event_id = ?", arguments: [Int64(event.rawValue)]
            ).map(self.alertSettings) ?? OfflineAlertSettings()
        }
    }

    public func eventsWithOfflineAlerts() async throws -> [(Event, OfflineAlertSettings)] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM offline_alert WHERE email IS NOT NULL OR webhook_url IS NOT NULL ORDER BY event_id
                    """
            ).compactMap { row in
                guard let event = try EventRow.fetchOne(db, key: row["event_id"] as Int64)?.event else { return nil }
                return (event, try self.alertSettings(row))
            }
        }
    }

    /// Opened: the database holds the webhook secret sealed.
    func alertSettings(_ row: Row) throws -> OfflineAlertSettings {
        let event = EventID(UInt32(row["event_id"] as Int64))
        let sealed: String? = row["webhook_secret"]
        return OfflineAlertSettings(
            email: row["email"], webhookURL: row["webhook_url"],
            webhookSecret: try sealed.map { try self.openSecret($0, .offlineAlertSecret(event: event)) })
    }

    public func openOfflineEpisodes(event: EventID) async throws -> [OfflineEpisode] {
        try await writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM offline_episode WHERE event_id = ? AND ended_at IS NULL ORDER BY device_id",
                arguments: [Int64(event.rawValue)]
            ).map { row in
                OfflineEpisode(
                    event: event, device: row["device_id"], door: row["door"], lastSeenAt: row["last_seen_at"],
                    detectedAt: row["detected_at"], endedAt: row["ended_at"])
            }
        }
    }

    public func recordOfflineEpisode(_ episode: OfflineEpisode, deliveries: [AlertDelivery]) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO offline_episode (event_id, device_id, last_seen_at, door, detected_at)
                    VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                    """,
                arguments: [
                    Int64(episode.event.rawValue), episode.device, episode.lastSeenAt, episode.door,
                    episode.detectedAt,
                ])
            guard db.changesCount == 1 else { return false }
            for delivery in deliveries { try Self.insert(db, delivery) }
            return true
        }
    }

    public func endOfflineEpisode(_ episode: OfflineEpisode, deliveries: [AlertDelivery]) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE offline_episode SET ended_at = ?
                    WHERE event_id = ? AND device_id = ? AND last_seen_at = ? AND ended_at IS NULL
                    """,
                arguments: [
                    episode.endedAt ?? episode.detectedAt, Int64(episode.event.rawValue), episode.device,
                    episode.lastSeenAt,
                ])
            guard db.changesCount == 1 else { return false }
            for delivery in deliveries { try Self.insert(db, delivery) }
            return true
        }
    }

    static func insert(_ db: Database, _ d: AlertDelivery) throws {
        try db.execute(
            sql: """
                INSERT INTO alert_delivery (id, event_id, device_id, door, kind, channel, target, last_seen_at, state,
                    attempts, next_attempt_at, last_error, created_at, sent_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                d.id, Int64(d.event.rawValue), d.device, d.door, d.kind.rawValue, d.channel.rawValue, d.target,
                d.lastSeenAt, d.state.rawValue, d.attempts, d.nextAttemptAt, d.lastError, d.createdAt, d.sentAt,
            ])
    }

    static func delivery(_ row: Row) -> AlertDelivery {
        AlertDelivery(
            id: row["id"], event: EventID(UInt32(row["event_id"] as Int64)), device: row["device_id"],
            door: row["door"], kind: AlertDelivery.Kind(rawValue: row["kind"]) ?? .offline,
            channel: AlertDelivery.Channel(rawValue: row["channel"]) ?? .email, target: row["target"],
            lastSeenAt: row["last_seen_at"], state: AlertDelivery.State(rawValue: row["state"]) ?? .failed,
            attempts: row["attempts"], nextAttemptAt: row["next_attempt_at"], lastError: row["last_error"],
            createdAt: row["created_at"], sentAt: row["sent_at"])
    }

    public func runNextAlertDelivery(
        now: Date, _ perform: @Sendable (AlertDelivery) async throws -> AlertDeliveryResult
    ) async throws -> AlertDelivery? {
        // The same claim as the issuances': read in a write transaction, held in this process's running set.
        let claimed: AlertDelivery? = try await writer.write { db in
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM alert_delivery WHERE state = 'pending' AND next_attempt_at <= ?
                    ORDER BY next_attempt_at, id LIMIT 64
                    """, arguments: [now])
            {
                let delivery = Self.delivery(row)
                if runningIssuances.withLock({ $0.insert(delivery.id).inserted }) { return delivery }
            }
            return nil
        }
        guard let delivery = claimed else { return nil }
        defer { _ = runningIssuances.withLock { $0.remove(delivery.id) } }
        let next = delivery.after(try await perform(delivery), now: now)
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE alert_delivery SET state = ?, attempts = ?, next_attempt_at = ?, last_error = ?, sent_at = ?
                    WHERE id = ?
                    """,
                arguments: [
                    next.state.rawValue, next.attempts, next.nextAttemptAt, next.lastError, next.sentAt, next.id,
                ])
        }
        return next
    }

    public func alertDeliveries(event: EventID, limit: Int) async throws -> [AlertDelivery] {
        try await writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM alert_delivery WHERE event_id = ? ORDER BY created_at DESC, id LIMIT ?",
                arguments: [Int64(event.rawValue), limit]
            ).map(Self.delivery)
        }
    }
}
