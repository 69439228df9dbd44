internal import GRDB
import KioskCore
import PassFormat

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
    ///
    /// What the kiosk holds of the page's guests (versions, queued items, tombstones, check-ins) is read with
    /// one query per table, not probed row by row, and a row's statements run only where they change
    /// something: a first download into an empty kiosk writes each guest's roster row and name words only.
    @discardableResult
    public func applyRosterPage(_ updates: [RosterUpdate], state: RosterSyncState, at now: Date) throws
        -> RosterApplied
    {
        try applyRosterPage(PreparedRosterPage(updates), state: state, at: now)
    }

    /// `applyRosterPage` of a page whose search keys are already made (by the downloader, beside the apply of
    /// the page before).
    @discardableResult
    public func applyRosterPage(_ page: PreparedRosterPage, state: RosterSyncState, at now: Date) throws
        -> RosterApplied
    {
        // Back to SQLite's checkpoint threshold for every other commit, even when the page fails.
        defer {
            _ = try? database.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA wal_autocheckpoint = \(Self.defaultCheckpointPages)")
            }
        }
        let updates = page.updates
        // A page's name words are selected from its roster rows (`RosterWords`): they cannot break their foreign
        // key, which would cost a probe per word row.
        let applied = try write("applying a roster page", durability: .normal, foreignKeys: false) { db in
            // Each page dirties some 1,400 index pages (names, e-mails and words land all over their indexes):
            // checkpointing after every page, as the default 1,000-page threshold does, wrote them to the
            // database file and synced it 200 times in a first download.
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(Self.rosterCheckpointPages)")
            // And with SQLite's 2 MB page cache, those pages spilled to the WAL before the commit and were read
            // back from the file for the next page: the cache stays large until the roster is complete.
            try db.execute(sql: "PRAGMA cache_size = \(Self.rosterCacheSize)")
            var result = RosterApplied()
            if page.firstDownload, try !Self.hasGuests(event: state.event, db) { try SearchIndexes.drop(db) }
            var held = try RosterHoldings(db, guests: updates.map(\.guest))
            var words = RosterWords()
            let device = updates.contains { $0.checkInScan != nil } ? try Self.enrolledDevice(db) : nil
            for (update, keys) in zip(updates, page.keys) {
                let key = RosterHoldings.Key(update.guest)
                let version = held.versions[key]
                if let version, version > update.version {
                    result.older += 1
                    continue
                }
                try upsert(
                    update.guest, keys: keys, version: update.version, at: now, isNew: version == nil,
                    words: &words, db)
                held.versions[key] = update.version
                let arguments: StatementArguments = [key.event, key.id]
                if update.guest.status == .cancelled {
                    if held.tombstoned.insert(key).inserted { try Self.cancelledOnServer(arguments, at: now, db) }
                } else if held.tombstoned.remove(key) != nil {
                    try Self.activeOnServer(arguments, db)
                }
                result.applied += 1
                if held.queued.contains(key) {
                    result.protected += 1
                    continue
                }
                if let checkIn = update.checkIn {
                    let scan = update.checkInScan
                    if let device, let scan, scan.deviceId != device, let own = held.ownScans[key] {
                        try Self.supersede(own: own, winner: checkIn, key: key, at: now, db)
                        held.ownScans[key] = nil
                    }
                    try db.cachedStatement(
                        sql: """
                            INSERT INTO check_ins (event, guest_id, door, at, arrived, source)
                            VALUES (?, ?, ?, ?, ?, ?)
                            ON CONFLICT (event, guest_id) DO UPDATE SET
                                door = excluded.door, at = excluded.at, arrived = excluded.arrived, source = excluded.source
                            """
                    ).execute(
                        arguments: arguments + [
                            checkIn.door, checkIn.at.storeMilliseconds, checkIn.arrived, checkIn.source.rawValue,
                        ])
                    held.checkedIn.insert(key)
                    if let device, let scan, scan.deviceId == device, held.ownScans[key] != scan.sequence {
                        try Self.reclaim(scan, key: key, db)
                        held.ownScans[key] = scan.sequence
                    }
                } else if held.checkedIn.remove(key) != nil {
                    try db.cachedStatement(sql: "DELETE FROM check_ins WHERE event = ? AND guest_id = ?")
                        .execute(arguments: arguments)
                    // No check-in on the server: no admit of this door's is superseded by one any more.
                    try db.cachedStatement(sql: "DELETE FROM sync_superseded WHERE event = ? AND guest_id = ?")
                        .execute(arguments: arguments)
                    held.ownScans[key] = nil
                }
            }
            try words.write(db)
            if page.firstDownload && state.complete { try SearchIndexes.create(db) }
            try Self.saveRosterSyncState(db, state)
            return result
        }
        // Once the roster is complete, the page cache shrinks back, the pages left in the WAL are checkpointed
        // here rather than by the commit of the next check-in, and the WAL file, grown to up to 128 MiB, is cut
        // back to 4 MiB when SQLite next starts it over.
        if state.complete {
            try run("checkpointing after a roster page") {
                try database.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA cache_size = \(Self.defaultCacheSize)")
                    try db.execute(sql: "PRAGMA journal_size_limit = \(Self.walSizeLimit)")
                    try db.checkpoint(.passive)
                }
            }
        }
        return applied
    }

    /// The guest (`[event, guest_id]`) is cancelled on the server: its tombstone, if it has none yet.
    static func cancelledOnServer(_ guest: StatementArguments, at now: Date, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO tombstones (event, guest_id, cancelled_at, reason)
                VALUES (?, ?, ?, 'cancelled on the server')
                ON CONFLICT (event, guest_id) DO NOTHING
                """
        ).execute(arguments: guest + [now.storeMilliseconds])
    }

    /// The guest (`[event, guest_id]`) is active on the server: no tombstone.
    static func activeOnServer(_ guest: StatementArguments, _ db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM tombstones WHERE event = ? AND guest_id = ?").execute(arguments: guest)
    }

    /// Whether the kiosk holds any guest of `event`.
    static func hasGuests(event: EventID, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM roster WHERE event = ?)"),
            arguments: [Int64(event.rawValue)]) ?? false
    }

    /// This kiosk's device id on the server, if it is enrolled.
    static func enrolledDevice(_ db: Database) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT device_id FROM sync_enrolment WHERE id = 1"))
    }

    /// A guest this door admitted (its check-in with queue sequence `own`, answered, no longer queued) whose
    /// check-in on the server is another door's earlier scan: this door's admit is a double entry, kept in
    /// `sync_superseded` with the winning door and time (for `kioskctl status` and the screen), and the
    /// check-in row is no longer this door's to undo. Runs before the row becomes the winner's.
    static func supersede(own: Int64, winner: CheckIn, key: RosterHoldings.Key, at now: Date, _ db: Database) throws {
        let arguments: StatementArguments = [key.event, key.id]
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO sync_superseded
                    (sequence, event, guest_id, door, at, arrived, source, winning_door, winning_at, answered_at)
                SELECT queue_sequence, event, guest_id, door, at, arrived, source, ?, ?, ?
                FROM check_ins WHERE event = ? AND guest_id = ? AND queue_sequence = ?
                """
        ).execute(arguments: [winner.door, winner.at.storeMilliseconds, now.storeMilliseconds] + arguments + [own])
        try db.cachedStatement(sql: "UPDATE check_ins SET queue_sequence = NULL WHERE event = ? AND guest_id = ?")
            .execute(arguments: arguments)
    }

    /// The server's check-in is this door's own scan again (the scan that displaced it was reverted): it is no
    /// longer a superseded scan, and the check-in row is this door's (to undo, and on the screen).
    static func reclaim(_ scan: ServerScan, key: RosterHoldings.Key, _ db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM sync_superseded WHERE sequence = ?").execute(arguments: [scan.sequence]
        )
        try db.cachedStatement(sql: "UPDATE check_ins SET queue_sequence = ? WHERE event = ? AND guest_id = ?")
            .execute(arguments: [scan.sequence, key.event, key.id])
    }

    /// WAL pages (128 MiB) after which a roster page's commit checkpoints: some 20 pages of a first download
    /// between checkpoints, each copying the pages they dirtied (at most the database's size) once.
    static let rosterCheckpointPages = 32768
    /// SQLite's own threshold, for every other commit.
    static let defaultCheckpointPages = 1000
    /// The writer's page cache while a roster downloads (negative: KiB), 64 MiB: a 100,000-guest roster with
    /// its indexes is about 42 MB.
    static let rosterCacheSize = -65536
    /// SQLite's own page cache, 2 MiB.
    static let defaultCacheSize = -2000
    /// The size (bytes) a WAL file is cut back to when it starts over.
    static let walSizeLimit = 4 << 20

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
