internal import GRDB
import KioskCore

import struct Foundation.Date

extension SQLiteDoorStore {
    /// Where the server's roster stands for the event, or nil for a standalone door (never enrolled).
    public func rosterSyncState(event: EventID) throws -> RosterSyncState? {
        try read("reading the roster download state") { db in try Self.rosterSyncState(db, event: event) }
    }

    static func rosterSyncState(_ db: Database, event: EventID) throws -> RosterSyncState? {
        guard
            let row = try Row.fetchOne(
                try db.cachedStatement(sql: "SELECT * FROM sync_roster WHERE event = :event"),
                arguments: ["event": Int64(event.rawValue)])
        else { return nil }
        return RosterSyncState(
            event: event, complete: try row.decode(Bool.self, forColumn: Column("complete")),
            nextPage: try row.decode(String?.self, forColumn: Column("next_page")),
            changeCursor: try row.decode(String?.self, forColumn: Column("change_cursor")),
            fetched: try row.int(Column("fetched")), total: try row.decode(Int?.self, forColumn: Column("total")),
            fetchedAt: try row.decode(Int64?.self, forColumn: Column("fetched_at")).map {
                Date(storeMilliseconds: $0)
            })
    }

    public func incompleteRoster(event: EventID) throws -> RosterProgress? {
        try read("reading the roster download state") { db in
            guard let state = try Self.rosterSyncState(db, event: event), !state.complete else { return nil }
            return RosterProgress(fetched: state.fetched, total: state.total)
        }
    }

    /// Starts the server's roster for the event from nothing (at enrolment): until the first download has
    /// fetched its last page, scans get `rosterIncomplete`. Guests already on the kiosk stay.
    public func startRosterDownload(event: EventID) throws {
        try write("starting the roster download") { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO sync_roster (event, complete, next_page, change_cursor, fetched, total, fetched_at)
                    VALUES (:event, 0, NULL, NULL, 0, NULL, NULL)
                    """, arguments: ["event": Int64(event.rawValue)])
        }
    }

    /// Applies one page of the server's roster and saves `state` (the cursor after this page) in the same
    /// transaction, so a download or delta cut anywhere resumes after the last page applied. The commit does not
    /// wait for the disk (`synchronous=NORMAL`): a power cut may lose the last pages, rows and cursor together,
    /// and they are fetched again; check-ins keep their durable commits.
    ///
    /// Each row: ignored if older than the kiosk's (`version`); otherwise the roster row, its tombstone
    /// (cancelled on the server) and the guest's check-in (at any door, or none) become the server's. Merge
    /// protection: a guest with an item still queued here keeps the local check-in as it is; the server's
    /// answer to the queued item, and the next delta, bring it in line.
    @discardableResult
    public func applyRosterPage(_ updates: [RosterUpdate], state: RosterSyncState, at now: Date) throws
        -> RosterApplied
    {
        try write("applying a roster page", durability: .normal) { db in
            var result = RosterApplied()
            let probe = try db.cachedStatement(
                sql: """
                    SELECT (SELECT version FROM roster WHERE event = :event AND guest_id = :guest_id) AS version,
                        EXISTS (SELECT 1 FROM sync_queue WHERE event = :event AND guest_id = :guest_id) AS queued
                    """)
            for update in updates {
                let key: StatementArguments = [
                    "event": Int64(update.guest.event.rawValue), "guest_id": update.guest.guest.text,
                ]
                guard let row = try Row.fetchOne(probe, arguments: key) else { continue }
                if let held = try row.decode(Int64?.self, forColumn: Column("version")), held > update.version {
                    result.older += 1
                    continue
                }
                try upsert(update.guest, version: update.version, at: now, db)
                if update.guest.status == .cancelled {
                    try db.cachedStatement(
                        sql: """
                            INSERT INTO tombstones (event, guest_id, cancelled_at, reason)
                            VALUES (:event, :guest_id, :at, 'cancelled on the server')
                            ON CONFLICT (event, guest_id) DO NOTHING
                            """
                    ).execute(arguments: key + ["at": now.storeMilliseconds])
                } else {
                    try db.cachedStatement(sql: "DELETE FROM tombstones WHERE event = :event AND guest_id = :guest_id")
                        .execute(arguments: key)
                }
                result.applied += 1
                if try row.decode(Bool.self, forColumn: Column("queued")) {
                    result.protected += 1
                    continue
                }
                if let checkIn = update.checkIn {
                    try db.cachedStatement(
                        sql: """
                            INSERT INTO check_ins (event, guest_id, door, at, arrived, source)
                            VALUES (:event, :guest_id, :door, :at, :arrived, :source)
                            ON CONFLICT (event, guest_id) DO UPDATE SET
                                door = excluded.door, at = excluded.at, arrived = excluded.arrived, source = excluded.source
                            """
                    ).execute(
                        arguments: key + [
                            "door": checkIn.door, "at": checkIn.at.storeMilliseconds, "arrived": checkIn.arrived,
                            "source": checkIn.source.rawValue,
                        ])
                } else {
                    try db.cachedStatement(sql: "DELETE FROM check_ins WHERE event = :event AND guest_id = :guest_id")
                        .execute(arguments: key)
                }
            }
            try Self.saveRosterSyncState(db, state)
            return result
        }
    }

    static func saveRosterSyncState(_ db: Database, _ state: RosterSyncState) throws {
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO sync_roster (event, complete, next_page, change_cursor, fetched, total, fetched_at)
                VALUES (:event, :complete, :next_page, :change_cursor, :fetched, :total, :fetched_at)
                """
        ).execute(arguments: [
            "event": Int64(state.event.rawValue), "complete": state.complete, "next_page": state.nextPage,
            "change_cursor": state.changeCursor, "fetched": state.fetched, "total": state.total,
            "fetched_at": state.fetchedAt?.storeMilliseconds,
        ])
    }
}
