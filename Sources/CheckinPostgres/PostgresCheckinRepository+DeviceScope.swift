import CheckinCore
import PassFormat
import PostgresNIO

extension PostgresCheckinRepository {
    public func enrolledEvents(device: String) async throws -> Set<EventID> {
        // The latest redeemed code of the device (index enrolment_code_by_device).
        let found = try await rows(
            """
            SELECT event_id FROM enrolment_code WHERE device_id = \(device) AND used_at IS NOT NULL
            ORDER BY used_at DESC LIMIT 1
            """)
        return Set(try found.map { EventID(UInt32(try $0["event_id"].decode(Int64.self))) })
    }
}
