import GRDB
import KioskCore
import SignedRecords

@testable import KioskStore

/// A database exactly as the kiosk before GRDB left it: its own `kiosk_migrations` table (number, name,
/// applied_at) and the shipped migrations' SQL, each applied in a transaction, then rows written as that
/// kiosk wrote them. Raw SQL on purpose: this is the fixture of the upgrade, not the store's code path.
enum OldKioskDatabase {
    /// The bookkeeping table of the old code (`Migration.swift` before GRDB), verbatim.
    static let migrationsTableSQL = """
        CREATE TABLE IF NOT EXISTS kiosk_migrations (
            number     INTEGER PRIMARY KEY,
            name       TEXT    NOT NULL,
            applied_at INTEGER NOT NULL  -- ms since 1970
        )
        """

    /// An old database at `path` (WAL, as the old code set it) or in memory, with `migrations` applied.
    static func make(_ db: TestDatabase, migrations: [Migration]) throws -> DatabaseQueue {
        let queue = db.kind == .memory ? try DatabaseQueue() : try DatabaseQueue(path: db.path)
        if db.kind == .file { try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") } }
        for migration in migrations {
            try queue.inTransaction(.immediate) { db in
                try db.execute(sql: migrationsTableSQL)
                try db.execute(sql: migration.sql)
                try db.execute(
                    sql: "INSERT INTO kiosk_migrations (number, name, applied_at) VALUES (?, ?, ?)",
                    arguments: [migration.number, migration.name, 1_750_000_000_000])
                return .commit
            }
        }
        return queue
    }

    /// A roster row as the old kiosk wrote it: with its name words once migration 2 made their table.
    static func insert(_ guest: RosterGuest, into queue: DatabaseQueue) throws {
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO roster (event, guest_id, tenant, name, name_key, email, email_key, party_size, notes,
                                        updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
                    """,
                arguments: [
                    guest.event.rawValue, guest.guest.text, guest.tenant.rawValue, guest.name,
                    SearchKey.fold(guest.name), guest.email, SearchKey.fold(guest.email),
                    guest.partySize, guest.notes,
                ])
            guard try db.tableExists("roster_words") else { return }
            for word in NameWordsModel.words(of: guest.name) {
                try db.execute(
                    sql: "INSERT INTO roster_words (event, word, guest_id) VALUES (?, ?, ?)",
                    arguments: [guest.event.rawValue, word, guest.guest.text])
            }
        }
    }

    /// A check-in with its sync-queue and audit rows, as the old `record(checkIn:attempt:)` wrote them.
    static func record(_ checkIn: CheckIn, into queue: DatabaseQueue) throws {
        let values: StatementArguments = [
            checkIn.event.rawValue, checkIn.guest.text, checkIn.door,
            checkIn.at.storeMilliseconds, checkIn.arrived, checkIn.source.rawValue,
        ]
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO check_ins (event, guest_id, door, at, arrived, source) VALUES (?, ?, ?, ?, ?, ?)
                    """, arguments: values)
            try db.execute(
                sql: """
                    INSERT INTO sync_queue (event, guest_id, door, at, arrived, source, idempotency_key)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """, arguments: values + [checkIn.idempotencyKey])
            try db.execute(
                sql: """
                    INSERT INTO audit_log (at, door, source, payload, guest_id, verdict, reason)
                    VALUES (?, ?, ?, 'PASS', ?, 'admitted', 'valid pass')
                    """,
                arguments: [
                    checkIn.at.storeMilliseconds, checkIn.door, checkIn.source.rawValue,
                    checkIn.guest.text,
                ])
        }
    }
}
