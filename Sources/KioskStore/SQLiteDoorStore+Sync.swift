internal import GRDB
import KioskCore
import PassFormat

import struct Foundation.Date

extension SQLiteDoorStore {
    /// The kiosk's enrolment with a server, or nil if it was never enrolled (a standalone door).
    public func enrolment() throws -> SyncEnrolment? {
        try read("reading the enrolment") { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM sync_enrolment WHERE id = 1") else {
                return nil
            }
            return SyncEnrolment(
                serverURL: try row.text(Column("server_url")), deviceID: try row.text(Column("device_id")),
                token: try row.text(Column("token")), tenant: try row.tenant(Column("tenant")),
                queueEpoch: try row.text(Column("queue_epoch")),
                caFile: try row.decode(String?.self, forColumn: Column("ca_file")),
                enrolledAt: try row.date(Column("enrolled_at")))
        }
    }

    /// Keeps the enrolment, replacing an earlier one (a re-enrolled kiosk). The queue stays: what is still
    /// queued goes to the server under the new enrolment's keys.
    public func saveEnrolment(_ enrolment: SyncEnrolment) throws {
        try write("saving the enrolment") { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO sync_enrolment
                        (id, server_url, device_id, token, tenant, queue_epoch, ca_file, enrolled_at)
                    VALUES (1, :server_url, :device_id, :token, :tenant, :queue_epoch, :ca_file, :enrolled_at)
                    """,
                arguments: [
                    "server_url": enrolment.serverURL, "device_id": enrolment.deviceID, "token": enrolment.token,
                    "tenant": Int64(enrolment.tenant.rawValue), "queue_epoch": enrolment.queueEpoch,
                    "ca_file": enrolment.caFile, "enrolled_at": enrolment.enrolledAt.storeMilliseconds,
                ])
        }
    }

    /// The nonce of the enrolment in progress, made (random, kept) by the first call: a redeem whose answer was
    /// lost is asked again with it, and the server gives this kiosk its device without a new code.
    public func enrolmentNonce(at now: Date) throws -> String {
        try write("keeping the enrolment nonce") { db in
            if let nonce = try String.fetchOne(db, sql: "SELECT nonce FROM sync_enrolment_attempt WHERE id = 1") {
                return nonce
            }
            var generator = SystemRandomNumberGenerator()
            let nonce = Base32.encode((0..<20).map { _ in UInt8.random(in: 0...255, using: &generator) })
            try db.execute(
                sql: "INSERT INTO sync_enrolment_attempt (id, nonce, started_at) VALUES (1, ?, ?)",
                arguments: [nonce, now.storeMilliseconds])
            return nonce
        }
    }

    /// Keeps the enrolment, replacing an earlier one, and ends the attempt (its nonce goes).
    public func finishEnrolment(_ enrolment: SyncEnrolment) throws {
        try saveEnrolment(enrolment)
        try write("ending the enrolment attempt") { db in
            try db.execute(sql: "DELETE FROM sync_enrolment_attempt")
        }
    }

    /// Notes that the server answered at `contact.at` with the clock offset it showed.
    public func recordContact(_ contact: SyncContact) throws {
        try write("recording contact with the server", durability: .normal) { db in
            try db.execute(
                sql: """
                    UPDATE sync_enrolment SET last_contact = :at, clock_offset_ms = :offset,
                        clock_offset_uncertainty_ms = :uncertainty
                    WHERE id = 1
                    """,
                arguments: [
                    "at": contact.at.storeMilliseconds, "offset": contact.clockOffsetMilliseconds,
                    "uncertainty": contact.clockOffsetUncertaintyMilliseconds,
                ])
        }
    }

    /// The last answer from the server, if any.
    public func lastContact() throws -> SyncContact? {
        try read("reading the last contact") { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT last_contact, clock_offset_ms, clock_offset_uncertainty_ms FROM sync_enrolment WHERE id = 1
                        """),
                let at = try row.decode(Int64?.self, forColumn: Column("last_contact"))
            else { return nil }
            return SyncContact(
                at: Date(storeMilliseconds: at),
                clockOffsetMilliseconds: try row.decode(Int64?.self, forColumn: Column("clock_offset_ms")) ?? 0,
                clockOffsetUncertaintyMilliseconds: try row.decode(
                    Int64?.self, forColumn: Column("clock_offset_uncertainty_ms")))
        }
    }

    /// The next items to upload: at most `limit` (the server takes 50 per batch), in scan (sequence) order.
    public func nextSyncBatch(limit: Int = 50) throws -> [PendingCheckIn] {
        try pendingCheckIns(limit: limit)
    }

    /// Applies the server's answers in one transaction: each answered item leaves the queue; a superseded one
    /// is kept in `sync_superseded` (and the guest's local check-in, if it is still that scan's, becomes the
    /// winning door's: not this door's to undo any more), a rejected one
    /// in `sync_failures`. An answer for an item no longer
    /// queued (answered before) changes nothing. Returns how many queued items it took out.
    @discardableResult
    public func applySyncAnswers(_ answers: [SyncAnswer], at now: Date) throws -> Int {
        try write("applying the server's answers") { db in
            var removed = 0
            for answer in answers {
                let key: StatementArguments = ["sequence": answer.sequence, "now": now.storeMilliseconds]
                switch answer.outcome {
                case .confirmed:
                    break
                case .superseded(let door, let at):
                    try db.execute(
                        sql: """
                            INSERT OR REPLACE INTO sync_superseded
                                (sequence, event, guest_id, door, at, arrived, source, winning_door, winning_at,
                                 answered_at)
                            SELECT sequence, event, guest_id, door, at, arrived, source, :winning_door, :winning_at, :now
                            FROM sync_queue WHERE sequence = :sequence
                            """,
                        arguments: key + ["winning_door": door, "winning_at": at?.storeMilliseconds])
                    // The guest's check-in here becomes the one the server kept: a later scan tells where and when.
                    if let door, let at {
                        try db.execute(
                            sql: """
                                UPDATE check_ins SET door = :winning_door, at = :winning_at, queue_sequence = NULL
                                WHERE (event, guest_id) IN (SELECT event, guest_id FROM sync_queue WHERE sequence = :sequence)
                                    AND (queue_sequence IS NULL OR queue_sequence = :sequence)
                                """,
                            arguments: key + ["winning_door": door, "winning_at": at.storeMilliseconds])
                    }
                case .rejected(let reason):
                    try db.execute(
                        sql: """
                            INSERT OR REPLACE INTO sync_failures
                                (sequence, event, guest_id, door, at, arrived, source, idempotency_key, reason,
                                 failed_at, kind)
                            SELECT sequence, event, guest_id, door, at, arrived, source, idempotency_key, :reason,
                                :now, kind
                            FROM sync_queue WHERE sequence = :sequence
                            """,
                        arguments: key + ["reason": reason])
                }
                if case .rejected = answer.outcome {
                } else {
                    // A revert the server took: the admit it undid is no double entry any more.
                    try db.execute(
                        sql: """
                            DELETE FROM sync_superseded
                            WHERE sequence = (SELECT reverts FROM sync_queue WHERE sequence = :sequence)
                            """, arguments: key)
                }
                try db.execute(sql: "DELETE FROM sync_queue WHERE sequence = :sequence", arguments: key)
                removed += db.changesCount
            }
            return removed
        }
    }

    /// Scans the server refused for good, oldest first.
    public func syncFailures() throws -> [SyncFailure] {
        try read("reading sync failures") { db in
            try Row.fetchAll(db, sql: "SELECT * FROM sync_failures ORDER BY sequence").map { row in
                SyncFailure(
                    sequence: try row.decode(Int64.self, forColumn: Column("sequence")),
                    checkIn: try CheckInRecord(row: row).checkIn, reason: try row.text(Column("reason")),
                    failedAt: try row.date(Column("failed_at")))
            }
        }
    }

    /// This kiosk's scans that the server kept as events because the guest was checked in earlier elsewhere.
    public func supersededScans() throws -> [SupersededScan] {
        try read("reading superseded scans") { db in
            try Row.fetchAll(db, sql: "SELECT * FROM sync_superseded ORDER BY sequence")
                .map { row in
                    SupersededScan(
                        sequence: try row.decode(Int64.self, forColumn: Column("sequence")),
                        checkIn: try CheckInRecord(row: row).checkIn,
                        winningDoor: try row.decode(String?.self, forColumn: Column("winning_door")),
                        winningAt: try row.decode(Int64?.self, forColumn: Column("winning_at")).map {
                            Date(storeMilliseconds: $0)
                        })
                }
        }
    }
}
