import CheckinCore
import GRDB
import PassFormat

extension SQLiteCheckinRepository {
    public func enrolledEvents(device: String) async throws -> Set<EventID> {
        try await writer.read { db in
            // The latest redeemed code of the device (index enrolment_code_by_device).
            let event = try Int64.fetchOne(
                db,
                sql: """
                    SELECT event_id FROM enrolment_code WHERE device_id = ? AND used_at IS NOT NULL
                    ORDER BY used_at DESC LIMIT 1
                    """, arguments: [device])
            return Set(event.map { [EventID(UInt32($0))] } ?? [])
        }
    }
}
