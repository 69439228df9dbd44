import CheckinCore
import Foundation
import GRDB
import PassFormat

extension SQLiteCheckinRepository {
    public func eventsToPurge(endedBefore: Date) async throws -> [Event] {
        try await writer.read { db in
            try EventRow.fetchAll(
                db,
                sql: "SELECT * FROM event WHERE ends_at < ? AND personal_data_purged_at IS NULL ORDER BY id",
                arguments: [endedBefore]
            ).map(\.event)
        }
    }

    /// One transaction under `secure_delete` (SQLite zeroes what it frees or overwrites), then a checkpoint that
    /// truncates the WAL, so the old values are in neither the database file nor its WAL afterwards.
    public func purgePersonalData(event: EventID, at time: Date) async throws -> PersonalDataPurge {
        let id = Int64(event.rawValue)
        let purge = try await writer.write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT personal_data_purged_at FROM event WHERE id = ?", arguments: [id])
            else { throw RepositoryError.notFound("event \(event)") }
            // Purged before: nothing to do (and the first purge's time stays).
            if row["personal_data_purged_at"] as Date? != nil {
                return PersonalDataPurge(event: event, guests: 0, passes: 0, passImages: [])
            }
            let images = try String.fetchAll(
                db, sql: "SELECT stored_name FROM pass_issuance WHERE event_id = ? AND stored_name IS NOT NULL",
                arguments: [id])
            try db.execute(
                sql: """
                    UPDATE guest SET name = '', email = NULL, phone = NULL, check_in_note = NULL, arrival_alert = NULL,
                        external_ref = NULL
                    WHERE event_id = ?
                    """, arguments: [id])
            let guests = db.changesCount
            try db.execute(
                sql: """
                    UPDATE pass_issuance SET recipient = NULL, pass = NULL, image = NULL, stored_name = NULL,
                        last_error = NULL
                    WHERE event_id = ?
                    """, arguments: [id])
            let passes = db.changesCount
            try db.execute(
                sql: "UPDATE event SET personal_data_purged_at = ? WHERE id = ?", arguments: [time, id])
            return PersonalDataPurge(event: event, guests: guests, passes: passes, passImages: images)
        }
        try await writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        return purge
    }

    public func personalDataPurgedAt(event: EventID) async throws -> Date? {
        try await writer.read { db in
            try Date.fetchOne(
                db, sql: "SELECT personal_data_purged_at FROM event WHERE id = ?", arguments: [Int64(event.rawValue)])
        }
    }
}
