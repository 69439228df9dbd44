import CheckinCore
import EntryRules
import Foundation
import GRDB
import PassFormat

extension SQLiteCheckinRepository {
    /// Works the guest's check-in out again from all its scans (`CheckInReconciliation`) and writes what
    /// changed: the check-in row, the answers of the scans it displaced or restored, a new version of the guest
    /// for the kiosks' deltas. Returns the changed answers.
    static func reconcile(
        _ db: Database, guest: GuestID, event: EventID, list: ListID, first: Bool, current: CheckinCore.CheckIn?,
        at time: Date
    ) throws -> [ScanKey: ScanOutcome] {
        let eventId = Int64(event.rawValue)
        let rows = try CheckInEventRow.filter(
            CheckInEventRow.Columns.eventId == eventId && CheckInEventRow.Columns.guestId == guest.text
                && Column("list_id") == Int64(list.rawValue)
        ).order(CheckInEventRow.Columns.id).fetchAll(db)
        let decoder = JSONDecoder()
        let scans = try rows.map { row in
            CheckInReconciliation.StoredScan(
                event: row.checkInEvent, answer: try decoder.decode(ScanOutcome.self, from: Data(row.answer.utf8)))
        }
        let result = CheckInReconciliation.reconcile(scans)
        let encoder = JSONEncoder()
        for (key, answer) in result.changed {
            try db.execute(
                sql: """
                    UPDATE check_in_event SET outcome = ?, answer = ?
                    WHERE device_id = ? AND epoch = ? AND sequence = ?
                    """,
                arguments: [
                    answer.kind.rawValue, String(decoding: try encoder.encode(answer), as: UTF8.self), key.deviceId,
                    key.epoch, key.sequence,
                ])
        }
        if result.checkIn?.scanKey != current?.scanKey {
            if let checkIn = result.checkIn {
                try saveCheckIn(db, checkIn, list: list, first: first)
            } else {
                try db.execute(
                    sql: "DELETE FROM list_check_in WHERE event_id = ? AND guest_id = ? AND list_id = ?",
                    arguments: [eventId, guest.text, Int64(list.rawValue)])
            }
            try touchGuest(db, guest, event: event, at: time)
        }
        return result.changed
    }

    public func doubleEntries(event: EventID) async throws -> [DoubleEntry] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT e.guest_id, g.name, c.door AS check_in_door, c.corrected_time AS check_in_at,
                        e.door, e.corrected_time, e.device_id, e.epoch, e.sequence
                    FROM check_in_event AS e
                    JOIN list_check_in AS c ON c.event_id = e.event_id AND c.guest_id = e.guest_id
                        AND c.list_id = e.list_id
                    JOIN guest AS g ON g.event_id = e.event_id AND g.id = e.guest_id
                    WHERE e.event_id = ? AND e.kind = 'check_in' AND e.outcome = 'superseded'
                        AND NOT EXISTS (
                            SELECT 1 FROM check_in_event AS r
                            WHERE r.event_id = e.event_id AND r.guest_id = e.guest_id AND r.kind = 'revert'
                                AND r.outcome <> 'rejected' AND r.reverts_device_id = e.device_id
                                AND r.reverts_epoch = e.epoch AND r.reverts_sequence = e.sequence)
                    ORDER BY e.corrected_time, e.id
                    """, arguments: [Int64(event.rawValue)]
            ).map { row in
                DoubleEntry(
                    guest: GuestID(text: row["guest_id"])!, guestName: row["name"], checkInDoor: row["check_in_door"],
                    checkInAt: row["check_in_at"], otherDoor: row["door"], otherAt: row["corrected_time"],
                    otherKey: ScanKey(deviceId: row["device_id"], epoch: row["epoch"], sequence: row["sequence"]))
            }
        }
    }
}
