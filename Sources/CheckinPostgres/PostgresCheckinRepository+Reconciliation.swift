import CheckinCore
import EntryRules
import Foundation
import PassFormat
import PostgresNIO

extension PostgresCheckinRepository {
    static let checkInEventColumns = """
        event_id, guest_id, device_id, epoch, sequence, kind, door, source, device_time, corrected_time,
        received_at, arrived, outcome, reason, reverts_device_id, reverts_epoch, reverts_sequence, list_id
        """

    static func checkInEvent(_ row: PostgresRandomAccessRow) throws -> CheckInEvent {
        var reverts: ScanKey?
        if let deviceId = try row["reverts_device_id"].decode(String?.self),
            let epoch = try row["reverts_epoch"].decode(String?.self),
            let sequence = try row["reverts_sequence"].decode(Int64?.self)
        {
            reverts = ScanKey(deviceId: deviceId, epoch: epoch, sequence: sequence)
        }
        return CheckInEvent(
            event: EventID(UInt32(try row["event_id"].decode(Int64.self))),
            guest: try row["guest_id"].decode(String.self),
            key: ScanKey(
                deviceId: try row["device_id"].decode(String.self), epoch: try row["epoch"].decode(String.self),
                sequence: try row["sequence"].decode(Int64.self)),
            kind: ScanKind(rawValue: try row["kind"].decode(String.self)) ?? .checkIn,
            door: try row["door"].decode(String.self), source: try row["source"].decode(String.self),
            deviceTime: try row["device_time"].decode(Date.self),
            correctedTime: try row["corrected_time"].decode(Date.self),
            receivedAt: try row["received_at"].decode(Date.self),
            arrived: Int(try row["arrived"].decode(Int64.self)),
            outcome: ScanOutcome.Kind(rawValue: try row["outcome"].decode(String.self)) ?? .rejected,
            reason: try row["reason"].decode(String?.self), reverts: reverts,
            list: try row["list_id"].decode(Int64?.self).map { ListID(UInt32($0)) })
    }

    /// Works the guest's check-in out again from all its scans (`CheckInReconciliation`) and writes what
    /// changed: the check-in row, the answers of the scans it displaced or restored, a new version of the guest
    /// for the kiosks' deltas. The caller holds the guest's row lock. Returns the changed answers.
    static func reconcile(
        _ connection: PostgresConnection, guest: GuestID, event: EventID, list: ListID, first: Bool,
        current: CheckinCore.CheckIn?, at time: Date, logger: Logger
    ) async throws -> [ScanKey: ScanOutcome] {
        let eventId = Int64(event.rawValue)
        let listId = Int64(list.rawValue)
        let rows = try await connection.query(
            """
            SELECT \(unescaped: checkInEventColumns), answer FROM check_in_event
            WHERE event_id = \(eventId) AND guest_id = \(guest.text) AND list_id = \(listId) ORDER BY id
            """, logger: logger
        ).collect()
        let decoder = JSONDecoder()
        let scans = try rows.map { row in
            let row = row.makeRandomAccess()
            return CheckInReconciliation.StoredScan(
                event: try checkInEvent(row),
                answer: try decoder.decode(ScanOutcome.self, from: Data(try row["answer"].decode(String.self).utf8)))
        }
        let result = CheckInReconciliation.reconcile(scans)
        let encoder = JSONEncoder()
        for (key, answer) in result.changed {
            let text = String(decoding: try encoder.encode(answer), as: UTF8.self)
            try await connection.query(
                """
                UPDATE check_in_event SET outcome = \(answer.kind.rawValue), answer = \(text)
                WHERE device_id = \(key.deviceId) AND epoch = \(key.epoch) AND sequence = \(key.sequence)
                """, logger: logger)
        }
        if result.checkIn?.scanKey != current?.scanKey {
            if let checkIn = result.checkIn {
                try await saveCheckIn(connection, checkIn, list: list, first: first, logger: logger)
            } else {
                try await connection.query(
                    """
                    DELETE FROM list_check_in
                    WHERE event_id = \(eventId) AND guest_id = \(guest.text) AND list_id = \(listId)
                    """, logger: logger)
            }
            try await touchGuest(connection, guest, event: event, at: time, logger: logger)
        }
        return result.changed
    }

    /// Makes `checkIn` the guest's check-in (inserted, or replacing the one there).
    static func saveCheckIn(
        _ connection: PostgresConnection, _ checkIn: CheckinCore.CheckIn, list: ListID, first: Bool, logger: Logger
    ) async throws {
        try await connection.query(
            """
            INSERT INTO list_check_in (event_id, guest_id, list_id, first_list, device_id, epoch, sequence, door,
                device_time, corrected_time, received_at, arrived)
            VALUES (\(Int64(checkIn.event.rawValue)), \(checkIn.guest.text), \(Int64(list.rawValue)), \(first ? 1 : 0),
                \(checkIn.scanKey.deviceId), \(checkIn.scanKey.epoch), \(checkIn.scanKey.sequence), \(checkIn.door),
                \(checkIn.deviceTime), \(checkIn.correctedTime), \(checkIn.receivedAt), \(Int64(checkIn.arrived)))
            ON CONFLICT (event_id, guest_id, list_id) DO UPDATE SET device_id = excluded.device_id,
                epoch = excluded.epoch, sequence = excluded.sequence, door = excluded.door,
                device_time = excluded.device_time, corrected_time = excluded.corrected_time,
                received_at = excluded.received_at, arrived = excluded.arrived
            """, logger: logger)
    }

    public func doubleEntries(event: EventID) async throws -> [DoubleEntry] {
        try await rows(
            """
            SELECT e.guest_id, g.name, c.door AS check_in_door, c.corrected_time AS check_in_at,
                e.door, e.corrected_time, e.device_id, e.epoch, e.sequence
            FROM check_in_event AS e
            JOIN list_check_in AS c ON c.event_id = e.event_id AND c.guest_id = e.guest_id AND c.list_id = e.list_id
            JOIN guest AS g ON g.event_id = e.event_id AND g.id = e.guest_id
            WHERE e.event_id = \(Int64(event.rawValue)) AND e.kind = 'check_in' AND e.outcome = 'superseded'
                AND NOT EXISTS (
                    SELECT 1 FROM check_in_event AS r
                    WHERE r.event_id = e.event_id AND r.guest_id = e.guest_id AND r.kind = 'revert'
                        AND r.outcome <> 'rejected' AND r.reverts_device_id = e.device_id
                        AND r.reverts_epoch = e.epoch AND r.reverts_sequence = e.sequence)
            ORDER BY e.corrected_time, e.id
            """
        ).map { row in
            DoubleEntry(
                guest: GuestID(text: try row["guest_id"].decode(String.self))!,
                guestName: try row["name"].decode(String.self),
                checkInDoor: try row["check_in_door"].decode(String.self),
                checkInAt: try row["check_in_at"].decode(Date.self), otherDoor: try row["door"].decode(String.self),
                otherAt: try row["corrected_time"].decode(Date.self),
                otherKey: ScanKey(
                    deviceId: try row["device_id"].decode(String.self), epoch: try row["epoch"].decode(String.self),
                    sequence: try row["sequence"].decode(Int64.self)))
        }
    }
}
