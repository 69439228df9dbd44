import Foundation
internal import CSQLite

/// One open SQLite database: owns the `sqlite3` handle (closed in `deinit`) and a cache of prepared
/// statements. Used from one task at a time; not `Sendable`.
final class SQLiteConnection {
    /// The path SQLite treats as a private in-memory database.
    static let inMemoryPath = ":memory:"

    let path: String
    let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens (creating if missing) the database at `path`, or an in-memory one for ":memory:".
    ///
    /// Files get WAL journaling, `synchronous=FULL` (a commit is on disk when it returns) and `busy_timeout`;
    /// every connection gets `foreign_keys=ON`. The corresponding C function is `sqlite3_open_v2`.
    init(path: String, busyTimeout: Duration) throws(StoreError) {
        self.path = path
        let isFile = path != Self.inMemoryPath
        if isFile { try Self.checkFolderExists(of: path) }

        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &opened, flags, nil)
        guard let opened else {
            throw StoreError(resultCode: rc, message: "out of memory", operation: "opening database", path: path)
        }
        guard rc == SQLITE_OK else {
            let message = String(cString: sqlite3_errmsg(opened))
            sqlite3_close_v2(opened)
            throw StoreError(resultCode: rc, message: message, operation: "opening database", path: path)
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)

        try check(sqlite3_busy_timeout(handle, Self.milliseconds(busyTimeout)), "setting busy timeout")
        if isFile {
            // The first statement reads the file header: a file that is not SQLite fails here.
            try execute("PRAGMA journal_mode = WAL", "switching to WAL journaling")
            try execute("PRAGMA synchronous = FULL", "setting synchronous=FULL")
            if sqlite3_db_readonly(handle, "main") == 1 {
                throw StoreError(resultCode: SQLITE_READONLY, message: "the file is read-only",
                                 operation: "opening database", path: path)
            }
        }
        try execute("PRAGMA foreign_keys = ON", "enabling foreign keys")
    }

    deinit {
        statements.removeAll()  // finalizes each (sqlite3_finalize) before the handle closes
        sqlite3_close_v2(handle)
    }

    /// The boundary helper: passes `SQLITE_OK`, `SQLITE_ROW` and `SQLITE_DONE` through, and turns any other
    /// result code into a `StoreError` carrying `sqlite3_errmsg` and what was being done.
    @discardableResult
    func check(_ resultCode: Int32, _ operation: @autoclosure () -> String) throws(StoreError) -> Int32 {
        switch resultCode {
        case SQLITE_OK, SQLITE_ROW, SQLITE_DONE:
            return resultCode
        default:
            throw StoreError(resultCode: resultCode, message: String(cString: sqlite3_errmsg(handle)),
                             operation: operation(), path: path)
        }
    }

    /// Runs SQL text of one or more statements without results (pragmas, migrations): `sqlite3_exec`.
    func execute(_ sql: String, _ operation: @autoclosure () -> String) throws(StoreError) {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), operation())
    }

    /// The prepared statement for `sql`, prepared once (`sqlite3_prepare_v3`, persistent) and then reused.
    /// `name` says what it is for in error messages ("guest lookup").
    func statement(_ sql: String, name: String) throws(StoreError) -> SQLiteStatement {
        if let cached = statements[sql] { return cached }
        let statement = try SQLiteStatement(connection: self, sql: sql, name: name)
        statements[sql] = statement
        return statement
    }

    /// How many prepared statements the cache holds.
    var cachedStatementCount: Int { statements.count }

    /// Rows changed by the last INSERT, UPDATE or DELETE: `sqlite3_changes`.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Whether no transaction is open: `sqlite3_get_autocommit`.
    var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    private static func checkFolderExists(of path: String) throws(StoreError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw StoreError(kind: .folderMissing, resultCode: SQLITE_CANTOPEN,
                             message: "the folder \(folder) does not exist", operation: "opening database",
                             path: path)
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let ms = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, ms))
    }
}
