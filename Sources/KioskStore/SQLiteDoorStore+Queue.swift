import KioskCore

extension SQLiteDoorStore {
    /// Check-ins waiting for the server, oldest first (scan order), at most `limit`.
    public func pendingCheckIns(limit: Int) throws -> [PendingCheckIn] {
        try connection.rows("""
            SELECT c.sequence, \(Self.checkInColumns), c.attempts, c.last_error
            FROM sync_queue AS c ORDER BY c.sequence LIMIT ?1
            """, name: "pending check-ins", [.int(limit)]) { row throws(StoreError) in
            PendingCheckIn(sequence: row.int64(0), checkIn: try row.checkIn(from: 1), attempts: row.int(7),
                           lastError: row.optionalText(8))
        }
    }

    /// Removes check-ins the server has stored from the queue (their check-in rows stay), in one transaction.
    public func markSynced(sequences: [Int64]) throws {
        try connection.transaction("mark synced") {
            for sequence in sequences {
                try connection.run("DELETE FROM sync_queue WHERE sequence = ?1", name: "sync-queue delete",
                                   [.int(sequence)])
            }
        }
    }

    /// Counts a failed attempt to send a queued check-in and keeps the error for the operator.
    public func markFailed(sequence: Int64, error: String) throws {
        try connection.run("""
            UPDATE sync_queue SET attempts = attempts + 1, last_error = ?2 WHERE sequence = ?1
            """, name: "sync-queue failure", [.int(sequence), .text(error)])
    }

    /// How many check-ins wait for the server.
    public func pendingCount() throws -> Int {
        try connection.firstRow("SELECT count(*) FROM sync_queue", name: "pending count") { $0.int(0) } ?? 0
    }

    /// Every check-in at the event, in time order.
    public func checkIns(event: EventID) throws -> [CheckIn] {
        try connection.rows("""
            SELECT \(Self.checkInColumns) FROM check_ins AS c WHERE c.event = ?1 ORDER BY c.at, c.id
            """, name: "check-ins of event", [.int(event.rawValue)]) { row throws(StoreError) in try row.checkIn() }
    }
}
