import CheckinCore
import Foundation
import PassFormat
import PostgresNIO

extension PostgresCheckinRepository {
    public func setOfflineAlerts(_ settings: OfflineAlertSettings, event: EventID, at time: Date) async throws {
        let sealed = try settings.webhookSecret.map { try secrets.seal($0, context: .offlineAlertSecret(event: event)) }
        try await transaction { connection in
            let exists = try await connection.query(
                "SELECT 1 AS one FROM event WHERE id = \(Int64(event.rawValue))", logger: logger
            ).collect()
            guard !exists.isEmpty else { throw RepositoryError.notFound("event \(event)") }
            try await connection.query(
                """
                INSERT INTO offline_alert (event_id, email, webhook_url, webhook_secret, updated_at)
                VALUES (\(Int64(event.rawValue)), \(settings.email), \(settings.webhookURL), \(sealed),
                    \(time))
                ON CONFLICT (event_id) DO UPDATE SET email = excluded.email, webhook_url = excluded.webhook_url,
                    webhook_secret = excluded.webhook_secret, updated_at = excluded.updated_at
                """, logger: logger)
        }
    }

    public func offlineAlerts(event: EventID) async throws -> OfflineAlertSettings {
        try await rows(
            "SELECT email, webhook_url, webhook_secret FROM offline_alert WHERE event_id = \(Int64(event.rawValue))"
        ).first.map { try alertSettings($0, event: event) } ?? OfflineAlertSettings()
    }

    public func eventsWithOfflineAlerts() async throws -> [(Event, OfflineAlertSettings)] {
        let columns = Self.eventColumns.split(separator: ",").map { "e." + $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: ", ")
        return try await rows(
            """
            SELECT \(unescaped: columns), a.email, a.webhook_url, a.webhook_secret
            FROM offline_alert a JOIN event e ON e.id = a.event_id
            WHERE a.email IS NOT NULL OR a.webhook_url IS NOT NULL ORDER BY e.id
            """
        ).map { row in
            let event = try Self.event(row)
            return (event, try alertSettings(row, event: event.id))
        }
    }

    /// Opened: the database holds the webhook secret sealed.
    func alertSettings(_ row: PostgresRandomAccessRow, event: EventID) throws -> OfflineAlertSettings {
        OfflineAlertSettings(
            email: try row["email"].decode(String?.self), webhookURL: try row["webhook_url"].decode(String?.self),
            webhookSecret: try row["webhook_secret"].decode(String?.self).map {
                try secrets.open($0, context: .offlineAlertSecret(event: event))
            })
    }

    public func openOfflineEpisodes(event: EventID) async throws -> [OfflineEpisode] {
        try await rows(
            """
            SELECT device_id, door, last_seen_at, detected_at, ended_at FROM offline_episode
            WHERE event_id = \(Int64(event.rawValue)) AND ended_at IS NULL ORDER BY device_id
            """
        ).map { row in
            OfflineEpisode(
                event: event, device: try row["device_id"].decode(String.self),
                door: try row["door"].decode(String.self),
                lastSeenAt: try row["last_seen_at"].decode(Date.self),
                detectedAt: try row["detected_at"].decode(Date.self), endedAt: try row["ended_at"].decode(Date?.self))
        }
    }

    public func recordOfflineEpisode(_ episode: OfflineEpisode, deliveries: [AlertDelivery]) async throws -> Bool {
        try await transaction { connection in
            // Of several processes noticing the same silence, one inserts the row; the others insert nothing.
            let inserted = try await connection.query(
                """
                INSERT INTO offline_episode (event_id, device_id, last_seen_at, door, detected_at)
                VALUES (\(Int64(episode.event.rawValue)), \(episode.device), \(episode.lastSeenAt), \(episode.door),
                    \(episode.detectedAt))
                ON CONFLICT DO NOTHING RETURNING device_id
                """, logger: logger
            ).collect()
            guard !inserted.isEmpty else { return false }
            for delivery in deliveries { try await Self.insert(connection, delivery, logger: logger) }
            return true
        }
    }

    public func endOfflineEpisode(_ episode: OfflineEpisode, deliveries: [AlertDelivery]) async throws -> Bool {
        try await transaction { connection in
            let ended = try await connection.query(
                """
                UPDATE offline_episode SET ended_at = \(episode.endedAt ?? episode.detectedAt)
                WHERE event_id = \(Int64(episode.event.rawValue)) AND device_id = \(episode.device)
                    AND last_seen_at = \(episode.lastSeenAt) AND ended_at IS NULL
                RETURNING device_id
                """, logger: logger
            ).collect()
            guard !ended.isEmpty else { return false }
            for delivery in deliveries { try await Self.insert(connection, delivery, logger: logger) }
            return true
        }
    }

    static func insert(_ connection: PostgresConnection, _ d: AlertDelivery, logger: Logger) async throws {
        try await connection.query(
            """
            INSERT INTO alert_delivery (id, event_id, device_id, door, kind, channel, target, last_seen_at, state,
                attempts, next_attempt_at, last_error, created_at, sent_at)
            VALUES (\(d.id), \(Int64(d.event.rawValue)), \(d.device), \(d.door), \(d.kind.rawValue),
                \(d.channel.rawValue), \(d.target), \(d.lastSeenAt), \(d.state.rawValue), \(Int64(d.attempts)),
                \(d.nextAttemptAt), \(d.lastError), \(d.createdAt), \(d.sentAt))
            """, logger: logger)
    }

    static func delivery(_ r: PostgresRandomAccessRow) throws -> AlertDelivery {
        AlertDelivery(
            id: try r["id"].decode(String.self), event: EventID(UInt32(try r["event_id"].decode(Int64.self))),
            device: try r["device_id"].decode(String.self), door: try r["door"].decode(String.self),
            kind: AlertDelivery.Kind(rawValue: try r["kind"].decode(String.self)) ?? .offline,
            channel: AlertDelivery.Channel(rawValue: try r["channel"].decode(String.self)) ?? .email,
            target: try r["target"].decode(String.self), lastSeenAt: try r["last_seen_at"].decode(Date.self),
            state: AlertDelivery.State(rawValue: try r["state"].decode(String.self)) ?? .failed,
            attempts: Int(try r["attempts"].decode(Int64.self)),
            nextAttemptAt: try r["next_attempt_at"].decode(Date.self),
            lastError: try r["last_error"].decode(String?.self), createdAt: try r["created_at"].decode(Date.self),
            sentAt: try r["sent_at"].decode(Date?.self))
    }

    public func runNextAlertDelivery(
        now: Date, _ perform: @Sendable (AlertDelivery) async throws -> AlertDeliveryResult
    ) async throws -> AlertDelivery? {
        // As for the issuances: the row stays locked while it is sent and until the outcome commits; never
        // retried here, since a retry would send it again.
        do {
            return try await client.withConnection { connection in
                try await connection.withTransaction(logger: logger) { connection in
                    let rows = try await connection.query(
                        """
                        SELECT * FROM alert_delivery WHERE state = 'pending' AND next_attempt_at <= \(now)
                        ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
                        """, logger: logger
                    ).collect()
                    guard let row = rows.first else { return nil }
                    let delivery = try Self.delivery(row.makeRandomAccess())
                    let next = delivery.after(try await perform(delivery), now: now)
                    try await connection.query(
                        """
                        UPDATE alert_delivery SET state = \(next.state.rawValue), attempts = \(Int64(next.attempts)),
                            next_attempt_at = \(next.nextAttemptAt), last_error = \(next.lastError),
                            sent_at = \(next.sentAt)
                        WHERE id = \(next.id)
                        """, logger: logger)
                    return next
                }
            }
        } catch let failure as PostgresTransactionError {
            throw failure.closureError ?? failure.commitError ?? failure.beginError ?? failure
        }
    }

    public func alertDeliveries(event: EventID, limit: Int) async throws -> [AlertDelivery] {
        try await rows(
            """
            SELECT * FROM alert_delivery WHERE event_id = \(Int64(event.rawValue))
            ORDER BY created_at DESC, id LIMIT \(Int64(limit))
            """
        ).map(Self.delivery)
    }
}
