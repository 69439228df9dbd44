import CheckinCore
import EntryRules
import Foundation
import GRDB
import PassFormat

extension SQLiteCheckinRepository {
    /// A batch's scans in one transaction, in order, each in its own savepoint: the batch pays for one commit
    /// (one write of the pages it changed to the WAL) instead of one per scan. A scan that fails is rolled back
    /// to its savepoint; the scans before it are committed with their answers (a repeat of their keys gets
    /// them), the ones after it are not applied, and the error is thrown, as when each had its own transaction.
    public func apply(_ scans: [Scan], event: EventID, device: Device, receivedAt: @Sendable () -> Date)
        async throws -> [ScanOutcome]
    {
        let (outcomes, failure) = try await writer.write { db -> ([ScanOutcome], (any Error)?) in
            guard
                let closesAt = try EventRow.fetchOne(db, key: Int64(event.rawValue)).map({ $0.event.closesAt })
            else { throw RepositoryError.notFound("event \(event)") }
            let lists = try Self.eventLists(db, event)
            var outcomes: [ScanOutcome] = []
            outcomes.reserveCapacity(scans.count)
            for scan in scans {
                do {
                    var outcome: ScanOutcome?
                    try db.inSavepoint {
                        outcome = try Self.apply(
                            db, scan, event: event, device: device, receivedAt: receivedAt(), closesAt: closesAt,
                            lists: lists)
                        return .commit
                    }
                    outcomes.append(outcome!)
                } catch {
                    return (outcomes, error)
                }
            }
            return (outcomes, nil)
        }
        if let failure { throw failure }
        return outcomes
    }

    public func apply(_ scan: Scan, event: EventID, device: Device, receivedAt: Date) async throws -> ScanOutcome {
        try await apply([scan], event: event, device: device, receivedAt: { receivedAt })[0]
    }

    /// One scan, inside the caller's transaction: its key's stored answer if it has one, else the rules'
    /// decision written (the check-in event with its answer, and the effect). Statements are cached per
    /// connection, rows read by column name.
    static func apply(
        _ db: Database, _ scan: Scan, event: EventID, device: Device, receivedAt: Date, closesAt: Date?,
        lists: EventLists
    ) throws -> ScanOutcome {
        // A key seen before gets the answer it got the first time.
        if let stored = try String.fetchOne(
            db.cachedStatement(
                sql: "SELECT answer FROM check_in_event WHERE device_id = ? AND epoch = ? AND sequence = ?"),
            arguments: [scan.key.deviceId, scan.key.epoch, scan.key.sequence])
        {
            return try ScanOutcome(storedAnswer: stored)
        }
        var scan = scan
        guard let list = lists.resolve(scan.list) else {
            // A list of another event, or none the server made: refused for good, recorded like any scan.
            let refused = CheckInRules.refused(scan, event: event, reason: "unknown_list", receivedAt: receivedAt)
            try insertCheckInEvent(db, refused.event, answer: try refused.outcome.storedAnswer())
            return refused.outcome
        }
        scan.list = list
        let (guest, current) = try GuestAndCheckIn.fetch(db, scan.guest, event: event, list: list)
        let decision = CheckInRules.decide(
            scan, event: event, guest: guest, current: current, knownOffsetMs: device.knownClockOffsetMs,
            receivedAt: receivedAt, closesAt: closesAt)
        try insertCheckInEvent(db, decision.event, answer: try decision.outcome.storedAnswer())
        let first = list == lists.first
        // An exit, or an entry of a guest who has left this list before: the passages decide the answers.
        let passages = try scan.kind == .exit || (scan.kind == .checkIn && hasExits(db, scan.guest, event, list))
        switch decision.effect {
        case .keep where !passages:
            return decision.outcome
        case .becomeCheckIn(let checkIn) where current == nil && !passages:
            // The guest's first check-in at the list: no other scan to set right.
            try saveCheckIn(db, checkIn, list: list, first: first)
            try touchGuest(db, scan.guest, event: event, at: receivedAt)
            return decision.outcome
        case .keep, .becomeCheckIn, .removeCheckIn:
            // An earlier scan displaces the check-in, the check-in is undone, or exits are involved: every scan
            // of the guest at the list is set right (the displaced one superseded, a superseded one restored, a
            // re-entry told apart from a double entry).
            let changed = try reconcile(
                db, guest: scan.guest, event: event, list: list, first: first, current: current, at: receivedAt)
            return changed[scan.key] ?? decision.outcome
        }
    }

    /// Whether the guest has an exit recorded at the list.
    static func hasExits(_ db: Database, _ guest: GuestID, _ event: EventID, _ list: ListID) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT EXISTS (SELECT 1 FROM check_in_event WHERE event_id = ? AND guest_id = ? AND list_id = ?
                        AND kind = 'exit' AND outcome <> 'rejected')
                    """), arguments: [Int64(event.rawValue), guest.text, Int64(list.rawValue)]) ?? false
    }

    /// The event's lists, read once per batch.
    static func eventLists(_ db: Database, _ event: EventID) throws -> EventLists {
        let ids = try Int64.fetchAll(
            db, sql: "SELECT id FROM checkin_list WHERE event_id = ? ORDER BY id", arguments: [Int64(event.rawValue)])
        return EventLists(ids.map { ListID(UInt32($0)) })
    }

    static func insertCheckInEvent(_ db: Database, _ record: CheckInEvent, answer: String) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO check_in_event (event_id, guest_id, device_id, epoch, sequence, kind, door, source,
                    device_time, corrected_time, received_at, arrived, outcome, reason, reverts_device_id,
                    reverts_epoch, reverts_sequence, answer, list_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            Int64(record.event.rawValue), record.guest, record.key.deviceId, record.key.epoch, record.key.sequence,
            record.kind.rawValue, record.door, record.source, record.deviceTime, record.correctedTime,
            record.receivedAt, record.arrived, record.outcome.rawValue, record.reason, record.reverts?.deviceId,
            record.reverts?.epoch, record.reverts?.sequence, answer, record.list.map { Int64($0.rawValue) },
        ])
    }

    /// The guest's check-in at its list, new or replacing the one there (`first`: the list is the event's first).
    static func saveCheckIn(_ db: Database, _ checkIn: CheckinCore.CheckIn, list: ListID, first: Bool) throws {
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO list_check_in (event_id, guest_id, list_id, first_list, device_id, epoch,
                    sequence, door, device_time, corrected_time, received_at, arrived)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            Int64(checkIn.event.rawValue), checkIn.guest.text, Int64(list.rawValue), first ? 1 : 0,
            checkIn.scanKey.deviceId, checkIn.scanKey.epoch, checkIn.scanKey.sequence, checkIn.door,
            checkIn.deviceTime, checkIn.correctedTime, checkIn.receivedAt, checkIn.arrived,
        ])
    }
}

/// The guest a scan names and its check-in, read in one statement (the guest's row joined with its check-in),
/// columns found by name once per read.
enum GuestAndCheckIn {
    static let sql = """
        SELECT g.name, g.email, g.phone, g.party_size, g.access_type, g.check_in_note, g.arrival_alert, g.status,
            g.version, c.device_id, c.epoch, c.sequence, c.door, c.device_time, c.corrected_time, c.received_at,
            c.arrived
        FROM guest AS g
            LEFT JOIN list_check_in AS c ON c.event_id = g.event_id AND c.guest_id = g.id AND c.list_id = ?
        WHERE g.event_id = ? AND g.id = ?
        """

    static func fetch(_ db: Database, _ id: GuestID, event: EventID, list: ListID) throws -> (
        Guest?, CheckinCore.CheckIn?
    ) {
        let statement = try db.cachedStatement(sql: sql)
        guard let row = try Row.fetchOne(statement, arguments: [Int64(list.rawValue), Int64(event.rawValue), id.text])
        else {
            return (nil, nil)
        }
        func index(_ column: String) throws -> Int {
            guard let index = statement.index(ofColumn: column) else {
                throw DatabaseError(message: "the check-in query has no column \(column): \(statement.sql)")
            }
            return index
        }
        let deviceId = try index("device_id")
        let epoch = try index("epoch")
        let sequence = try index("sequence")
        let door = try index("door")
        let deviceTime = try index("device_time")
        let correctedTime = try index("corrected_time")
        let receivedAt = try index("received_at")
        let arrived = try index("arrived")
        let name = try index("name")
        let email = try index("email")
        let phone = try index("phone")
        let partySize = try index("party_size")
        let ticketType = try index("access_type")
        let checkInNote = try index("check_in_note")
        let arrivalAlert = try index("arrival_alert")
        let status = try index("status")
        let version = try index("version")
        var checkIn: CheckinCore.CheckIn?
        if let device: String = row[deviceId] {
            checkIn = CheckinCore.CheckIn(
                event: event, guest: id, scanKey: ScanKey(deviceId: device, epoch: row[epoch], sequence: row[sequence]),
                door: row[door], deviceTime: row[deviceTime], correctedTime: row[correctedTime],
                receivedAt: row[receivedAt], arrived: row[arrived], list: list)
        }
        let guest = Guest(
            id: id, event: event, name: row[name], email: row[email], phone: row[phone], partySize: row[partySize],
            ticketType: row[ticketType], checkInNote: row[checkInNote], arrivalAlert: row[arrivalAlert],
            status: GuestState(rawValue: row[status]) ?? .active, version: row[version], checkIn: checkIn?.summary)
        return (guest, checkIn)
    }
}
