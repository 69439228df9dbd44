internal import GRDB
import KioskCore
import PassFormat

extension SQLiteDoorStore {
    /// The door's last check-ins that are still the guests' check-ins here, newest (highest queue sequence)
    /// first. A check-in another door's earlier scan superseded has that door's name and is not listed.
    public func recentCheckIns(event: EventID, door: String, limit: Int) throws -> [RecentCheckIn] {
        try read("reading the door's last check-ins") { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT r.*, c.door AS check_in_door, c.at AS check_in_at, c.arrived AS check_in_arrived,
                            c.source AS check_in_source, c.queue_sequence
                        FROM check_ins AS c
                        JOIN roster AS r ON r.event = c.event AND r.guest_id = c.guest_id
                        WHERE c.event = :event AND c.door = :door AND c.queue_sequence IS NOT NULL
                        ORDER BY c.queue_sequence DESC LIMIT :limit
                        """),
                arguments: ["event": Int64(event.rawValue), "door": door, "limit": limit]
            ).map { row in
                let guest = try GuestRecord(row: row).guest
                let checkIn = CheckIn(
                    guest: guest.guest, event: event, door: try row.text(Column("check_in_door")),
                    at: try row.date(Column("check_in_at")), arrived: try row.int(Column("check_in_arrived")),
                    source: try row.source(Column("check_in_source")))
                return RecentCheckIn(
                    guest: guest, checkIn: checkIn,
                    sequence: try row.decode(Int64.self, forColumn: Column("queue_sequence")))
            }
        }
    }

    /// Removes the check-in if it is still the one queued under `recent.sequence`, queues the revert (kind
    /// `revert`, naming that sequence, at the attempt's time) and audits the attempt, in one durable
    /// transaction. Otherwise audits the attempt as `undo_refused` and changes nothing else.
    public func revert(_ recent: RecentCheckIn, attempt: ScanAttempt) throws -> RevertWrite {
        try write("undoing a check-in") { db in
            try db.cachedStatement(
                sql: """
                    DELETE FROM check_ins
                    WHERE event = :event AND guest_id = :guest_id AND queue_sequence = :sequence
                    """
            ).execute(arguments: [
                "event": Int64(recent.checkIn.event.rawValue), "guest_id": recent.guest.guest.text,
                "sequence": recent.sequence,
            ])
            guard db.changesCount == 1 else {
                var refused = attempt
                refused.verdict = "undo_refused"
                refused.reason = "the guest's check-in is no longer queue item \(recent.sequence) of this door"
                try AuditRecord(refused).insert(db)
                return .notCheckedInHere
            }
            let revert = CheckIn(
                guest: recent.guest.guest, event: recent.checkIn.event, door: attempt.door, at: attempt.at,
                arrived: 0, source: .manual)
            try QueuedCheckInRecord(checkIn: revert, kind: .revert(of: recent.sequence)).insert(db)
            try AuditRecord(attempt).insert(db)
            return .reverted
        }
    }
}
