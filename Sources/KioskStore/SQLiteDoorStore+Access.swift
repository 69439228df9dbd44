internal import GRDB

extension SQLiteDoorStore {
    /// How hard a write transaction's commit waits for the disk.
    enum Durability {
        /// `synchronous=FULL`: on disk when the method returns (check-ins, roster, queue).
        case full
        /// `synchronous=NORMAL`: in WAL mode it survives a crash of the kiosk and is made durable by the next
        /// full commit; only a power cut in between may lose it (audit rows of rejected scans).
        case normal
    }

    /// Runs `body`, turning whatever it throws into a `StoreError` that names the file and `operation`.
    func run<T>(_ operation: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw StoreError.wrapping(error, operation: operation, path: path)
        }
    }

    /// Runs `body` in a read transaction (on a WAL pool it does not wait for a writer).
    func read<T>(_ operation: String, _ body: (Database) throws -> T) throws -> T {
        try run(operation) { try database.read(body) }
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` ... `COMMIT` transaction, rolled back if anything throws. The
    /// audit rows waiting in `auditBacklog` are written first, in the same transaction, and leave the backlog
    /// once it has committed.
    ///
    /// IMMEDIATE takes the write lock at the start, so a database held by another process fails here (after
    /// the busy timeout) rather than half way through. `foreignKeys: false`: for a transaction whose inserts
    /// cannot break a reference (their rows are selected from the parent table), not to probe it per row.
    func write<T>(
        _ operation: String, durability: Durability = .full, foreignKeys: Bool = true, _ body: (Database) throws -> T
    ) throws -> T {
        try run(operation) {
            let waiting = auditBacklog.rows
            let result = try database.writeWithoutTransaction { db -> T in
                if durability == .normal { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
                defer { if durability == .normal { try? db.execute(sql: "PRAGMA synchronous = FULL") } }
                if !foreignKeys { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
                defer { if !foreignKeys { try? db.execute(sql: "PRAGMA foreign_keys = ON") } }
                var result: T?
                try db.inTransaction(.immediate) {
                    for attempt in waiting { try AuditRecord(attempt).insert(db) }
                    result = try body(db)
                    return .commit
                }
                return result!
            }
            auditBacklog.removeFirst(waiting.count)
            return result
        }
    }
}
