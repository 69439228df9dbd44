import CheckinCore
import EntryRules
import Foundation
import GRDB
import PassFormat

extension SQLiteCheckinRepository {
    public func checkIns(event: EventID) async throws -> [CheckinCore.CheckIn] {
        try await writer.read { db in
            try CheckInRow.filter(CheckInRow.Columns.eventId == Int64(event.rawValue))
                .order(Column("corrected_time"), CheckInRow.Columns.guestId).fetchAll(db).map(\.checkIn)
        }
    }

    public func listCheckIns(event: EventID) async throws -> [CheckinCore.CheckIn] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM list_check_in WHERE event_id = ? ORDER BY corrected_time, guest_id, list_id
                    """, arguments: [Int64(event.rawValue)]
            ).map { row in
                var checkIn = try CheckInRow(row: row).checkIn
                checkIn.list = ListID(UInt32(row["list_id"] as Int64))
                return checkIn
            }
        }
    }

    public func checkInEvents(event: EventID) async throws -> [CheckInEvent] {
        try await writer.read { db in
            try CheckInEventRow.filter(CheckInEventRow.Columns.eventId == Int64(event.rawValue))
                .order(CheckInEventRow.Columns.id).fetchAll(db).map(\.checkInEvent)
        }
    }
}
