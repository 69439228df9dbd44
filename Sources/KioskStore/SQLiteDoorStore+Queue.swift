internal import GRDB
import KioskCore
import PassFormat

extension SQLiteDoorStore {
    /// Check-ins waiting for the server, oldest first (scan order), at most `limit`.
    public func pendingCheckIns(limit: Int) throws -> [PendingCheckIn] {
        try read("reading pending check-ins") { db in
            try QueuedCheckInRecord.fetchAll(
                db, sql: "SELECT * FROM sync_queue ORDER BY sequence LIMIT :limit",
                arguments: ["limit": limit]
            ).map(\.pending)
        }
    }

    /// Removes check-ins the server has stored from the queue (their check-in rows stay), in one transaction.
    public func markSynced(sequences: [Int64]) throws {
        try write("marking check-ins synced") { db in
            for sequence in sequences {
                try db.execute(
                    sql: "DELETE FROM sync_queue WHERE sequence = :sequence",
                    arguments: ["sequence": sequence])
            }
        }
    }

    /// Counts a failed attempt to send a queued check-in and keeps the error for the operator.
    public func markFailed(sequence: Int64, error: String) throws {
        try write("recording a failed send") { db in
            try db.execute(
                sql: """
                    UPDATE sync_queue SET attempts = attempts + 1, last_error = :error WHERE sequence = :sequence
                    """, arguments: ["sequence": sequence, "error": error])
        }
    }

    /// How many check-ins wait for the server.
    public func pendingCount() throws -> Int {
        try read("counting pending check-ins") { db in try QueuedCheckInRecord.fetchCount(db) }
    }

    /// Every check-in at the event, in time order.
    public func checkIns(event: EventID) throws -> [CheckIn] {
        try read("reading check-ins") { db in
            try CheckInRecord.fetchAll(
                db, sql: "SELECT * FROM check_ins WHERE event = :event ORDER BY at, id",
                arguments: ["event": Int64(event.rawValue)]
            ).map(\.checkIn)
        }
    }
}
