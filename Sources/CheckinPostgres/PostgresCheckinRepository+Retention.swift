import CheckinCore
import Foundation
import PassFormat
import PostgresNIO

extension PostgresCheckinRepository {
    public func eventsToPurge(endedBefore: Date) async throws -> [Event] {
        try await rows(
            """
            SELECT \(unescaped: Self.eventColumns) FROM event
            WHERE ends_at < \(endedBefore) AND personal_data_purged_at IS NULL ORDER BY id
            """
        ).map(Self.event)
    }

    /// One transaction; the event's row is locked first, so two server processes purging at once purge it once
    /// (the second finds it purged and changes nothing). The old row versions stay in the table's pages until
    /// PostgreSQL's vacuum reuses them (docs/SERVER.md, "Retention").
    public func purgePersonalData(event: EventID, at time: Date) async throws -> PersonalDataPurge {
        let id = Int64(event.rawValue)
        let logger = self.logger
        return try await transaction { connection in
            let found = try await connection.query(
                "SELECT personal_data_purged_at FROM event WHERE id = \(id) FOR UPDATE", logger: logger
            ).collect()
            guard let row = found.first else { throw RepositoryError.notFound("event \(event)") }
            if try row.makeRandomAccess()["personal_data_purged_at"].decode(Date?.self) != nil {
                return PersonalDataPurge(event: event, guests: 0, passes: 0, passImages: [])
            }
            var images: [String] = []
            for try await name in try await connection.query(
                "SELECT stored_name FROM pass_issuance WHERE event_id = \(id) AND stored_name IS NOT NULL",
                logger: logger
            ).decode(String.self) {
                images.append(name)
            }
            let guests = try await connection.query(
                """
                UPDATE guest SET name = '', email = NULL, phone = NULL, check_in_note = NULL, arrival_alert = NULL,
                    external_ref = NULL
                WHERE event_id = \(id) RETURNING id
                """, logger: logger
            ).collect().count
            let passes = try await connection.query(
                """
                UPDATE pass_issuance SET recipient = NULL, pass = NULL, image = NULL, stored_name = NULL,
                    last_error = NULL
                WHERE event_id = \(id) RETURNING id
                """, logger: logger
            ).collect().count
            try await connection.query(
                "UPDATE event SET personal_data_purged_at = \(time) WHERE id = \(id)", logger: logger)
            return PersonalDataPurge(event: event, guests: guests, passes: passes, passImages: images)
        }
    }

    public func personalDataPurgedAt(event: EventID) async throws -> Date? {
        try await rows("SELECT personal_data_purged_at FROM event WHERE id = \(Int64(event.rawValue))")
            .first?["personal_data_purged_at"].decode(Date?.self) ?? nil
    }
}
