import CheckinCore
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

    public func checkInEvents(event: EventID) async throws -> [CheckInEvent] {
        try await writer.read { db in
            try CheckInEventRow.filter(CheckInEventRow.Columns.eventId == Int64(event.rawValue))
                .order(CheckInEventRow.Columns.id).fetchAll(db).map(\.checkInEvent)
        }
    }
}
