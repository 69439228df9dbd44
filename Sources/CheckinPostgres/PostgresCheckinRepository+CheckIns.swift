import CheckinCore
import EntryRules
import Foundation
import PassFormat
import PostgresNIO

extension PostgresCheckinRepository {
    /// Two server processes may apply scans of one guest at once: the guest's row is locked first
    /// (`FOR UPDATE`), so they take turns and the second decides on the first one's check-in. The same key
    /// twice at once: the key is read again after the lock, and the unique key of `check_in_event` makes a
    /// loser without a guest row retry (and then read the winner's answer).
    ///
    /// Five round trips for a new check-in: BEGIN, the lock, one read after it (the key's stored answer, the
    /// event's close, the guest and its check-in: a statement after the lock sees every change committed
    /// by whoever held it before), one write (the check-in event, the check-in and the guest's new version in
    /// one statement), COMMIT.
    public func apply(_ scan: Scan, event: EventID, device: Device, receivedAt: Date) async throws -> ScanOutcome {
        try await transaction { connection in
            var scan = scan
            let eventId = Int64(event.rawValue)
            let named = scan.list.map { Int64($0.rawValue) }
            try await connection.query(
                "SELECT 1 AS one FROM guest WHERE event_id = \(eventId) AND id = \(scan.guest.text) FOR UPDATE",
                logger: logger)
            let found = try await connection.query(
                """
                SELECT (SELECT answer FROM check_in_event WHERE device_id = \(scan.key.deviceId)
                        AND epoch = \(scan.key.epoch) AND sequence = \(scan.key.sequence)) AS stored_answer,
                    e.ends_at AS event_ends_at, e.grace_minutes AS event_grace_minutes, \(unescaped: Self.guestColumns),
                    c.epoch AS check_in_epoch, c.device_time AS check_in_device_time,
                    c.received_at AS check_in_received_at, l.first_list_id, l.list_id,
                    EXISTS (SELECT 1 FROM check_in_event AS x WHERE x.event_id = e.id AND x.guest_id = \(scan.guest.text)
                        AND x.list_id = l.list_id AND x.kind = 'exit' AND x.outcome <> 'rejected') AS has_exits
                FROM event AS e
                CROSS JOIN LATERAL (
                    SELECT (SELECT min(id) FROM checkin_list WHERE event_id = e.id) AS first_list_id,
                        COALESCE(
                            (SELECT id FROM checkin_list WHERE event_id = e.id AND id = \(named)),
                            CASE WHEN \(named)::bigint IS NULL THEN (SELECT min(id) FROM checkin_list WHERE event_id = e.id)
                            END) AS list_id) AS l
                LEFT JOIN guest AS g ON g.event_id = e.id AND g.id = \(scan.guest.text)
                LEFT JOIN list_check_in AS c ON c.event_id = g.event_id AND c.guest_id = g.id AND c.list_id = l.list_id
                WHERE e.id = \(eventId)
                """, logger: logger
            ).collect()
            guard let row = found.first?.makeRandomAccess() else { throw RepositoryError.notFound("event \(event)") }
            // A key seen before gets the answer it got the first time.
            if let answer = try row["stored_answer"].decode(String?.self) {
                return try ScanOutcome(storedAnswer: answer)
            }
            guard let listId = try row["list_id"].decode(Int64?.self) else {
                // A list of another event, or none the server made: refused for good, recorded like any scan.
                let refused = CheckInRules.refused(scan, event: event, reason: "unknown_list", receivedAt: receivedAt)
                try await connection.query(
                    Self.insertEvent(refused.event, answer: try refused.outcome.storedAnswer()), logger: logger)
                return refused.outcome
            }
            let list = ListID(UInt32(listId))
            scan.list = list
            let first = try row["first_list_id"].decode(Int64?.self) == listId
            let passages = try scan.kind == .exit || (scan.kind == .checkIn && row["has_exits"].decode(Bool.self))
            let closesAt = try row["event_ends_at"].decode(Date.self).addingTimeInterval(
                Double(try row["event_grace_minutes"].decode(Int64.self)) * 60)
            let guest = try (row["id"].decode(String?.self) == nil ? nil : Self.guest(row))
            var current: CheckinCore.CheckIn?
            if let deviceId = try row["check_in_device"].decode(String?.self) {
                current = CheckinCore.CheckIn(
                    event: event, guest: scan.guest,
                    scanKey: ScanKey(
                        deviceId: deviceId, epoch: try row["check_in_epoch"].decode(String.self),
                        sequence: try row["check_in_sequence"].decode(Int64.self)),
                    door: try row["check_in_door"].decode(String.self),
                    deviceTime: try row["check_in_device_time"].decode(Date.self),
                    correctedTime: try row["check_in_at"].decode(Date.self),
                    receivedAt: try row["check_in_received_at"].decode(Date.self),
                    arrived: Int(try row["check_in_arrived"].decode(Int64.self)), list: list)
            }
            let decision = CheckInRules.decide(
                scan, event: event, guest: guest, current: current, knownOffsetMs: device.knownClockOffsetMs,
                receivedAt: receivedAt, closesAt: closesAt)
            let answer = try decision.outcome.storedAnswer()
            let record = decision.event
            let insertEvent = Self.insertEvent(record, answer: answer)
            switch decision.effect {
            case .keep where !passages:
                try await connection.query(insertEvent, logger: logger)
                return decision.outcome
            case .becomeCheckIn(let checkIn) where current == nil && !passages:
                // The guest's first check-in: no other scan to set right. The event, the check-in and the
                // guest's new version in one statement (each part on its own table).
                try await connection.query(
                    """
                    WITH scan AS (
                        INSERT INTO check_in_event (event_id, guest_id, device_id, epoch, sequence, kind, door,
                            source, device_time, corrected_time, received_at, arrived, outcome, reason,
                            reverts_device_id, reverts_epoch, reverts_sequence, answer, list_id)
                        VALUES (\(Int64(record.event.rawValue)), \(record.guest), \(record.key.deviceId),
                            \(record.key.epoch), \(record.key.sequence), \(record.kind.rawValue), \(record.door),
                            \(record.source), \(record.deviceTime), \(record.correctedTime), \(record.receivedAt),
                            \(Int64(record.arrived)), \(record.outcome.rawValue), \(record.reason),
                            \(record.reverts?.deviceId), \(record.reverts?.epoch), \(record.reverts?.sequence),
                            \(answer), \(listId))
                        RETURNING 1),
                    first AS (
                        INSERT INTO list_check_in (event_id, guest_id, list_id, first_list, device_id, epoch,
                            sequence, door, device_time, corrected_time, received_at, arrived)
                        VALUES (\(Int64(checkIn.event.rawValue)), \(checkIn.guest.text), \(listId), \(first ? 1 : 0),
                            \(checkIn.scanKey.deviceId), \(checkIn.scanKey.epoch), \(checkIn.scanKey.sequence),
                            \(checkIn.door), \(checkIn.deviceTime), \(checkIn.correctedTime), \(checkIn.receivedAt),
                            \(Int64(checkIn.arrived)))
                        RETURNING 1)
                    UPDATE guest SET version = version + 1, change_xid = pg_current_xact_id()::text::bigint,
                        change_seq = nextval('change_sequence'), updated_at = \(receivedAt)
                    WHERE event_id = \(eventId) AND id = \(scan.guest.text)
                    """, logger: logger)
                return decision.outcome
            case .keep, .becomeCheckIn, .removeCheckIn:
                // An earlier scan displaces the check-in, the check-in is undone, or exits are involved: every
                // scan of the guest at the list is set right (the displaced one superseded, a superseded one
                // restored, a re-entry told apart from a double entry).
                try await connection.query(insertEvent, logger: logger)
                let changed = try await Self.reconcile(
                    connection, guest: scan.guest, event: event, list: list, first: first, current: current,
                    at: receivedAt, logger: logger)
                return changed[scan.key] ?? decision.outcome
            }
        }
    }

    static func insertEvent(_ record: CheckInEvent, answer: String) -> PostgresQuery {
        """
        INSERT INTO check_in_event (event_id, guest_id, device_id, epoch, sequence, kind, door, source,
            device_time, corrected_time, received_at, arrived, outcome, reason, reverts_device_id,
            reverts_epoch, reverts_sequence, answer, list_id)
        VALUES (\(Int64(record.event.rawValue)), \(record.guest), \(record.key.deviceId), \(record.key.epoch),
            \(record.key.sequence), \(record.kind.rawValue), \(record.door), \(record.source),
            \(record.deviceTime), \(record.correctedTime), \(record.receivedAt), \(Int64(record.arrived)),
            \(record.outcome.rawValue), \(record.reason), \(record.reverts?.deviceId),
            \(record.reverts?.epoch), \(record.reverts?.sequence), \(answer), \(record.list.map { Int64($0.rawValue) }))
        """
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

    public func listCheckIns(event: EventID) async throws -> [CheckinCore.CheckIn] {
        try await rows(
            """
            SELECT \(unescaped: Self.checkInColumns), list_id FROM list_check_in
            WHERE event_id = \(Int64(event.rawValue)) ORDER BY corrected_time, guest_id, list_id
            """
        ).map { row in
            var checkIn = try Self.checkIn(row)
            checkIn.list = ListID(UInt32(try row["list_id"].decode(Int64.self)))
            return checkIn
        }
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
