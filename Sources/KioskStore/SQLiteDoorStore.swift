import KioskCore
import struct Foundation.Date

/// The kiosk's local database over SQLite: roster, tombstones, check-ins, the pending-sync queue and the audit
/// log, in one file (or in memory for tests).
///
/// Owns one connection and uses it from one task; it is not `Sendable`. Every write is one transaction, and a
/// method that returns has committed (`synchronous=FULL`). Failures throw `StoreError`.
public final class SQLiteDoorStore: DoorStore {
    /// The path that opens a private in-memory database (for tests).
    public static let inMemory = ":memory:"

    /// The database file, or ":memory:".
    public var path: String { connection.path }

    let connection: SQLiteConnection

    /// Opens the database at `path` (created if missing; its folder must exist), or ":memory:", and brings its
    /// schema up to date. `busyTimeout` is how long to wait for another process's lock before failing.
    /// The corresponding C functions are `sqlite3_open_v2` and `sqlite3_busy_timeout`.
    public convenience init(path: String, busyTimeout: Duration = .seconds(2)) throws {
        try self.init(path: path, busyTimeout: busyTimeout, migrations: Migrations.all)
    }

    /// Opens with only `migrations` applied: tests use it to make an older database.
    init(path: String, busyTimeout: Duration, migrations: [Migration]) throws {
        connection = try SQLiteConnection(path: path, busyTimeout: busyTimeout)
        try connection.migrate(migrations)
    }

    /// The columns `SQLiteRow.rosterGuest` reads, for a roster table aliased `r`.
    static let guestColumns = "r.guest_id, r.tenant, r.event, r.name, r.email, r.party_size, r.status, r.notes"
    /// The columns `SQLiteRow.checkIn` reads, for a check-in table aliased `c`.
    static let checkInColumns = "c.guest_id, c.event, c.door, c.at, c.arrived, c.source"

    /// Looks a guest up with one query: a tombstone or a cancelled status gives `.cancelled`, then an earlier
    /// check-in gives `.checkedIn`, then a roster row gives `.admissible`.
    public func lookUp(guest: GuestID, event: EventID) throws -> RosterLookup {
        let sql = """
            SELECT \(Self.guestColumns), \(Self.checkInColumns), t.guest_id IS NOT NULL, r.guest_id IS NOT NULL
            FROM (SELECT ?1 AS event, ?2 AS guest_id) AS k
            LEFT JOIN roster AS r ON r.event = k.event AND r.guest_id = k.guest_id
            LEFT JOIN check_ins AS c ON c.event = k.event AND c.guest_id = k.guest_id
            LEFT JOIN tombstones AS t ON t.event = k.event AND t.guest_id = k.guest_id
            """
        let found = try connection.firstRow(sql, name: "guest lookup", [.int(event.rawValue), .text(guest.text)]) {
            row throws(StoreError) -> RosterLookup in
            let hasTombstone = row.int(14) != 0
            let guest = row.int(15) != 0 ? try row.rosterGuest(from: 0) : nil
            let checkIn = row.isNull(8) ? nil : try row.checkIn(from: 8)
            if hasTombstone || guest?.status == .cancelled { return .cancelled(guest) }
            guard let guest else { return .notFound }
            if let checkIn { return .checkedIn(guest, checkIn) }
            return .admissible(guest)
        }
        return found ?? .notFound
    }

    /// Writes the check-in, its sync-queue row and the audit row in one transaction. If the guest already has
    /// a check-in at this event, writes only the audit row (verdict `already_checked_in`) and returns it.
    public func record(checkIn: CheckIn, attempt: ScanAttempt) throws -> CheckInWrite {
        try connection.transaction("check-in") {
            let inserted = try connection.run("""
                INSERT INTO check_ins (event, guest_id, door, at, arrived, source) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                ON CONFLICT (event, guest_id) DO NOTHING
                """, name: "check-in insert", Self.values(of: checkIn))
            guard inserted == 1 else {
                let existing = try connection.firstRow(
                    "SELECT \(Self.checkInColumns) FROM check_ins AS c WHERE c.event = ?1 AND c.guest_id = ?2",
                    name: "existing check-in", [.int(checkIn.event.rawValue), .text(checkIn.guest.text)]
                ) { row throws(StoreError) in try row.checkIn() }
                guard let existing else {
                    throw StoreError(kind: .other, resultCode: 0, message: "check-in neither inserted nor found",
                                     operation: "recording a check-in", path: path)
                }
                var refused = attempt
                refused.verdict = "already_checked_in"
                refused.reason = "already checked in at \(existing.door) at \(existing.at)"
                try insertAudit(refused)
                return .alreadyRecorded(existing)
            }
            try connection.run("""
                INSERT INTO sync_queue (event, guest_id, door, at, arrived, source, idempotency_key)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                """, name: "sync-queue insert", Self.values(of: checkIn) + [.text(checkIn.idempotencyKey)])
            try insertAudit(attempt)
            return .recorded
        }
    }

    /// Check-in fields as parameters ?1 to ?6: event, guest_id, door, at, arrived, source.
    static func values(of checkIn: CheckIn) -> [SQLiteValue] {
        [.int(checkIn.event.rawValue), .text(checkIn.guest.text), .text(checkIn.door),
         .int(checkIn.at.storeMilliseconds), .int(checkIn.arrived), .text(checkIn.source.rawValue)]
    }
}
