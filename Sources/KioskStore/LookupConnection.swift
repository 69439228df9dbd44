internal import GRDBSQLite
import KioskCore
import PassFormat
import SignedRecords

import struct Foundation.Date

/// The door's roster lookup, on an SQLite connection of its own with its statement prepared once.
///
/// The door looks a guest up for every pass it reads, so this path costs one statement and nothing around it:
/// no connection pool, dispatch queue or transaction (one SELECT reads one consistent snapshot by itself, and in
/// WAL mode it sees every commit of the store's writer, in this process or another), arguments bound by position
/// and columns read by index. Through GRDB's pool the same statement cost 0.016 ms at p50 (0.025 ms with its
/// read transaction); see docs/benchmarks/2026-11-door-pipeline.md, "Roster lookup".
///
/// The store owns it and uses it from one task at a time, as the store itself is used; the connection is opened
/// with SQLite's own mutex anyway.
final class LookupConnection {
    private let connection: OpaquePointer
    /// False for a connection borrowed from GRDB (an in-memory store), which GRDB closes.
    private let owned: Bool
    private var statement: OpaquePointer?
    private let path: String

    /// Opens `path` (an existing database whose schema is up to date) read-only beside the store's pool, through
    /// `uri` when given (the encrypting VFS's URI of the file, with its key).
    init(path: String, uri: String?, busyTimeout: Duration) throws(StoreError) {
        self.path = path
        var handle: OpaquePointer?
        let opened = sqlite3_open_v2(
            uri ?? path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_URI, nil)
        guard opened == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw StoreError(
                resultCode: opened, message: message, operation: "opening the lookup connection", path: path)
        }
        connection = handle
        owned = true
        let (seconds, attoseconds) = busyTimeout.components
        sqlite3_busy_timeout(connection, Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }

    /// Runs lookups on `connection`, which stays GRDB's: an in-memory database has no second connection. Use it
    /// inside GRDB's access to that connection, and let it go before that access ends.
    init(borrowing connection: OpaquePointer, path: String) {
        self.connection = connection
        self.path = path
        owned = false
    }

    deinit {
        sqlite3_finalize(statement)
        if owned { sqlite3_close_v2(connection) }
    }

    /// A tombstone or a cancelled status gives `.cancelled`, then an earlier check-in gives `.checkedIn`
    /// (`.doubleEntry` when another door's admit of the guest won on the server), then a roster row gives
    /// `.admissible`.
    func lookUp(guest: GuestID, event: EventID) throws(StoreError) -> RosterLookup {
        let statement = try prepared()
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        sqlite3_bind_int64(statement, 1, Int64(event.rawValue))
        let bound = guest.text.withCString { sqlite3_bind_text(statement, 2, $0, -1, Self.transient) }
        guard bound == SQLITE_OK else { throw failure(bound) }
        let stepped = sqlite3_step(statement)
        switch stepped {
        case SQLITE_ROW: return try lookup(statement, guest: guest, event: event)
        case SQLITE_DONE: return .notFound
        default: throw failure(stepped)
        }
    }

    /// The lookup statement, prepared on first use; SQLite prepares it again by itself after a schema change.
    private func prepared() throws(StoreError) -> OpaquePointer {
        if let statement { return statement }
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, Self.sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard code == SQLITE_OK, let prepared else { throw failure(code) }
        statement = prepared
        return prepared
    }

    /// The columns `lookup(_:guest:event:)` reads, by index.
    private static let sql = """
        SELECT r.tenant, r.name, r.email, r.party_size, r.status, r.notes,
            EXISTS (SELECT 1 FROM tombstones AS t WHERE t.event = k.event AND t.guest_id = k.guest_id),
            c.door, c.at, c.arrived, c.source,
            EXISTS (SELECT 1 FROM sync_superseded AS s WHERE s.event = k.event AND s.guest_id = k.guest_id)
        FROM (SELECT ?1 AS event, ?2 AS guest_id) AS k
        LEFT JOIN roster AS r ON r.event = k.event AND r.guest_id = k.guest_id
        LEFT JOIN check_ins AS c ON c.event = k.event AND c.guest_id = k.guest_id
        """

    private func lookup(_ row: OpaquePointer, guest: GuestID, event: EventID) throws(StoreError) -> RosterLookup {
        var rosterGuest: RosterGuest?
        if sqlite3_column_type(row, 0) != SQLITE_NULL {
            let statusText = Self.text(row, 4)
            guard let status = RosterGuest.Status(rawValue: statusText) else {
                throw corrupt("status '\(statusText)' is not active or cancelled")
            }
            rosterGuest = RosterGuest(
                guest: guest, tenant: TenantID(UInt32(truncatingIfNeeded: sqlite3_column_int64(row, 0))),
                event: event, name: Self.text(row, 1), email: Self.text(row, 2),
                partySize: Int(sqlite3_column_int64(row, 3)), status: status, notes: Self.text(row, 5))
        }
        if sqlite3_column_int64(row, 6) != 0 || rosterGuest?.status == .cancelled { return .cancelled(rosterGuest) }
        guard let rosterGuest else { return .notFound }
        guard sqlite3_column_type(row, 7) != SQLITE_NULL else { return .admissible(rosterGuest) }
        let sourceText = Self.text(row, 10)
        guard let source = ScanSource(rawValue: sourceText) else {
            throw corrupt("source '\(sourceText)' is not camera or manual")
        }
        let checkIn = CheckIn(
            guest: guest, event: event, door: Self.text(row, 7),
            at: Date(storeMilliseconds: sqlite3_column_int64(row, 8)), arrived: Int(sqlite3_column_int64(row, 9)),
            source: source)
        if sqlite3_column_int64(row, 11) != 0 { return .doubleEntry(rosterGuest, checkIn) }
        return .checkedIn(rosterGuest, checkIn)
    }

    /// A text column (NULL reads as ""), decoded as UTF-8 with any invalid bytes replaced.
    private static func text(_ row: OpaquePointer, _ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(row, column) else { return "" }
        let count = Int(sqlite3_column_bytes(row, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    private func failure(_ code: Int32) -> StoreError {
        StoreError(
            resultCode: sqlite3_extended_errcode(connection), message: String(cString: sqlite3_errmsg(connection)),
            operation: "guest lookup", path: path)
    }

    private func corrupt(_ what: String) -> StoreError {
        .corruptValue(what, operation: "guest lookup", path: path)
    }

    /// SQLITE_TRANSIENT: SQLite copies the bound text.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
