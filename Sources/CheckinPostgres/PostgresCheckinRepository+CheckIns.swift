import CheckinCore
import Foundation
import KioskCore
import PostgresNIO

extension PostgresCheckinRepository {
    /// Two server processes may apply scans of one guest at once: the guest's row is locked first
    /// (`FOR UPDATE`), so they take turns and the second decides on the first one's check-in. The same key
    /// twice at once: the key is read again after the lock, and the unique key of `check_in_event` makes a
    /// loser without a guest row retry (and then read the winner's answer).
    public func apply(_ scan: Scan, event: EventID, device: Device, receivedAt: Date) async throws -> ScanOutcome {
        try await transaction { connection in
            let eventId = Int64(event.rawValue)
            try await connection.query(
                "SELECT 1 AS one FROM guest WHERE event_id = \(eventId) AND id = \(scan.guest.text) FOR UPDATE",
                logger: logger)
            // A key seen before gets the answer it got the first time.
            let stored = try await connection.query(
                """
                SELECT answer FROM check_in_event
                WHERE device_id = \(scan.key.deviceId) AND epoch = \(scan.key.epoch) AND sequence = \(scan.key.sequence)
                """, logger: logger
            ).collect()
            if let answer = try stored.first?.makeRandomAccess()["answer"].decode(String.self) {
                return try JSONDecoder().decode(ScanOutcome.self, from: Data(answer.utf8))
            }
            let events = try await connection.query(
                "SELECT \(unescaped: Self.eventColumns) FROM event WHERE id = \(eventId)", logger: logger
            ).collect()
            guard let eventRow = events.first else { throw RepositoryError.notFound("event \(event)") }
            let closesAt = try Self.event(eventRow.makeRandomAccess()).closesAt
            let guest = try await Self.guest(connection, scan.guest, event: event, logger: logger)
            let current = try await connection.query(
                """
                SELECT \(unescaped: Self.checkInColumns) FROM check_in
                WHERE event_id = \(eventId) AND guest_id = \(scan.guest.text)
                """, logger: logger
            ).collect().first.map { try Self.checkIn($0.makeRandomAccess()) }
            let decision = CheckInRules.decide(
                scan, event: event, guest: guest, current: current, knownOffsetMs: device.knownClockOffsetMs,
                receivedAt: receivedAt, closesAt: closesAt)
            let answer = String(decoding: try JSONEncoder().encode(decision.outcome), as: UTF8.self)
            let record = decision.event
            try await connection.query(
                """
                INSERT INTO check_in_event (event_id, guest_id, device_id, epoch, sequence, kind, door, source,
                    device_time, corrected_time, received_at, arrived, outcome, reason, reverts_device_id,
                    reverts_epoch, reverts_sequence, answer)
                VALUES (\(Int64(record.event.rawValue)), \(record.guest), \(record.key.deviceId), \(record.key.epoch),
                    \(record.key.sequence), \(record.kind.rawValue), \(record.door), \(record.source),
                    \(record.deviceTime), \(record.correctedTime), \(record.receivedAt), \(Int64(record.arrived)),
                    \(record.outcome.rawValue), \(record.reason), \(record.reverts?.deviceId),
                    \(record.reverts?.epoch), \(record.reverts?.sequence), \(answer))
                """, logger: logger)
            switch decision.effect {
            case .keep:
                return decision.outcome
            case .becomeCheckIn(let checkIn) where current == nil:
                // The guest's first check-in: no other scan to set right.
                try await Self.saveCheckIn(connection, checkIn, logger: logger)
                try await Self.touchGuest(connection, scan.guest, event: event, at: receivedAt, logger: logger)
                return decision.outcome
            case .becomeCheckIn, .removeCheckIn:
                // An earlier scan displaces the check-in, or the check-in is undone: every scan of the guest is
                // set right (the displaced one superseded, a superseded one restored).
                let changed = try await Self.reconcile(
                    connection, guest: scan.guest, event: event, current: current, at: receivedAt, logger: logger)
                return changed[scan.key] ?? decision.outcome
            }
        }
    }

    static let checkInColumns = """
        event_id, guest_id, device_id, epoch, sequence, door, device_time, corrected_time, received_at, arrived
        """

    static func checkIn(_ row: PostgresRandomAccessRow) throws -> CheckinCore.CheckIn {
        CheckinCore.CheckIn(
            event: EventID(UInt32(try row["event_id"].decode(Int64.self))),
            guest: GuestID(text: try row["guest_id"].decode(String.self))!,
            scanKey: ScanKey(
                deviceId: try row["device_id"].decode(String.self), epoch: try row["epoch"].decode(String.self),
                sequence: try row["sequence"].decode(Int64.self)),
            door: try row["door"].decode(String.self), deviceTime: try row["device_time"].decode(Date.self),
            correctedTime: try row["corrected_time"].decode(Date.self),
            receivedAt: try row["received_at"].decode(Date.self), arrived: Int(try row["arrived"].decode(Int64.self)))
    }

    public func checkIns(event: EventID) async throws -> [CheckinCore.CheckIn] {
        try await rows(
            """
            SELECT \(unescaped: Self.checkInColumns) FROM check_in WHERE event_id = \(Int64(event.rawValue))
            ORDER BY corrected_time, guest_id
            """
        ).map(Self.checkIn)
    }

    public func checkInEvents(event: EventID) async throws -> [CheckInEvent] {
        try await rows(
            """
            SELECT \(unescaped: Self.checkInEventColumns)
            FROM check_in_event WHERE event_id = \(Int64(event.rawValue)) ORDER BY id
            """
        ).map(Self.checkInEvent)
    }
}
