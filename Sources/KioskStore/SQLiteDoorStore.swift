internal import GRDB
import KioskCore
import PassFormat

import struct Foundation.Date

/// The kiosk's local database over SQLite, through GRDB: roster, tombstones, check-ins, the pending-sync queue
/// and the audit log, in one file (or in memory for tests).
///
/// A file is opened as a GRDB `DatabasePool` (WAL: readers beside one writer), so the door loop and a sync
/// worker can share it; ":memory:" is a `DatabaseQueue`. Every write is one `BEGIN IMMEDIATE` transaction, and a
/// method that returns has committed (`synchronous=FULL`). Failures throw `StoreError`. The store object itself
/// keeps the audit rows a locked database could not take yet (`auditBacklog`), so one owner uses it from one
/// task; it is not `Sendable`.
public final class SQLiteDoorStore: DoorStore {
    /// The path that opens a private in-memory database (for tests).
    public static let inMemory = ":memory:"

    /// The database file, or ":memory:".
    public let path: String

    let database: any DatabaseWriter
    /// The door's lookups on a file's database (nil in memory). Set once, when the store opens.
    var lookupConnection: LookupConnection?
    /// The number the encrypting VFS knows this store's page key by (nil in memory).
    let keyID: Int?
    /// Audit rows waiting for the write lock, oldest first.
    var auditBacklog = AuditBacklog()

    /// Opens the database at `path` (its folder must exist), or ":memory:", and brings its schema up to date.
    /// `mode` says whether a missing file is created (`kioskctl roster import`, `demo`) or refused (the
    /// kiosk: a typo in the path must not start an empty roster). `busyTimeout` is how long to wait for
    /// another process's lock before failing with `StoreError.Kind.busy`.
    ///
    /// A file is encrypted at rest under `key` (see `EncryptingVFS`); without a key it is refused
    /// (`.keyMissing`). A plain database, from a kiosk before encryption, is encrypted first, keeping every row.
    public convenience init(
        path: String, mode: OpenMode, key: DatabaseKey? = nil, busyTimeout: Duration = .seconds(2)
    ) throws {
        try self.init(path: path, mode: mode, key: key, busyTimeout: busyTimeout, migrations: Migrations.all)
    }

    /// Opens with only `migrations` applied.
    init(path: String, mode: OpenMode, key: DatabaseKey?, busyTimeout: Duration, migrations: [Migration]) throws {
        self.path = path
        (database, keyID) = try Self.openDatabase(
            path: path, mode: mode, key: key, busyTimeout: busyTimeout, migrations: migrations)
        lookupConnection = nil
        do {
            try migrate(migrations)
            try checkpointIfNew()
            if path != Self.inMemory {
                // Through the same VFS and key as the pool: the lookup reads sealed pages too.
                lookupConnection = try LookupConnection(
                    path: path, uri: keyID.map { EncryptingVFS.uri(path: path, key: $0) }, busyTimeout: busyTimeout)
            }
        } catch {
            if let keyID { EncryptingVFS.forget(keyID) }
            throw error
        }
    }

    /// A store over a database opened elsewhere (tests make old databases this way).
    init(database: any DatabaseWriter, path: String, migrations: [Migration] = Migrations.all) throws {
        self.path = path
        self.database = database
        lookupConnection = nil
        keyID = nil
        try migrate(migrations)
    }

    /// A last try at the audit rows still waiting for a lock (at most one busy timeout).
    deinit {
        if !auditBacklog.rows.isEmpty {
            _ = try? write("writing waiting audit rows at close", durability: .normal) { _ in }
        }
        lookupConnection = nil  // closed before its key is forgotten
        if let keyID { EncryptingVFS.forget(keyID) }
    }

    private func migrate(_ migrations: [Migration]) throws {
        try run("bringing the schema up to date") {
            try KioskMigrator(migrations: migrations).migrate(database)
            // A first download cut off after it dropped the search indexes (`SearchIndexes`).
            if migrations.contains(where: { $0.number == Migrations.rosterWords.number }),
                try database.read({ db in try SearchIndexes.anyMissing(db) })
            {
                try database.write { db in try SearchIndexes.create(db) }
            }
        }
    }

    /// Looks a guest up (`LookupConnection`): on a file through the lookup connection, in memory on GRDB's.
    public func lookUp(guest: GuestID, event: EventID) throws -> RosterLookup {
        if let lookupConnection { return try lookupConnection.lookUp(guest: guest, event: event) }
        return try run("guest lookup") {
            try database.unsafeRead { db in
                guard let connection = db.sqliteConnection else { throw DatabaseError(resultCode: .SQLITE_MISUSE) }
                return try LookupConnection(borrowing: connection, path: path).lookUp(guest: guest, event: event)
            }
        }
    }

    /// Writes the check-in, its sync-queue row and the audit row in one transaction. If the guest already has
    /// a check-in at this event, writes only the audit row (verdict `already_checked_in`) and returns it.
    /// A database locked by another process throws `.busy`; the attempt is then kept as a `record_failed`
    /// audit row, written with the next write.
    public func record(checkIn: CheckIn, attempt: ScanAttempt) throws -> CheckInWrite {
        do {
            return try write("recording a check-in") { db in
                try db.cachedStatement(
                    sql: """
                        INSERT INTO check_ins (event, guest_id, door, at, arrived, source)
                        VALUES (:event, :guest_id, :door, :at, :arrived, :source)
                        ON CONFLICT (event, guest_id) DO NOTHING
                        """
                ).execute(arguments: CheckInRecord.arguments(checkIn))
                guard db.changesCount == 1 else {
                    let key: StatementArguments = [
                        "event": Int64(checkIn.event.rawValue),
                        "guest_id": checkIn.guest.text,
                    ]
                    guard let existing = try existingCheckIn(db, key) else {
                        throw StoreError(
                            kind: .other, resultCode: 0, message: "check-in neither inserted nor found",
                            operation: "recording a check-in", path: path)
                    }
                    var refused = attempt
                    refused.verdict = "already_checked_in"
                    refused.reason = "already checked in at \(existing.door) at \(existing.at)"
                    try AuditRecord(refused).insert(db)
                    return .alreadyRecorded(existing)
                }
                try QueuedCheckInRecord(checkIn: checkIn).insert(db)
                // The check-in keeps its queue sequence: undoing it names this scan to the server.
                try db.cachedStatement(
                    sql: """
                        UPDATE check_ins SET queue_sequence = :sequence WHERE event = :event AND guest_id = :guest_id
                        """
                ).execute(arguments: [
                    "event": Int64(checkIn.event.rawValue), "guest_id": checkIn.guest.text,
                    "sequence": db.lastInsertedRowID,
                ])
                try AuditRecord(attempt).insert(db)
                return .recorded
            }
        } catch let error as StoreError where error.kind == .busy {
            var failed = attempt
            failed.verdict = "record_failed"
            failed.reason = "not checked in: the database was locked by another process"
            auditBacklog.append(failed)
            auditBacklog.trim()
            throw error
        }
    }

    private func existingCheckIn(_ db: Database, _ key: StatementArguments) throws -> CheckIn? {
        try CheckInRecord.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT * FROM check_ins WHERE event = :event AND guest_id = :guest_id
                    """), arguments: key)?.checkIn
    }
}
