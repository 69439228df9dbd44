internal import CSQLite

/// A value bound to a statement parameter.
enum SQLiteValue {
    case int(Int64)
    case text(String)
    case null

    static func int(_ value: Int) -> SQLiteValue { .int(Int64(value)) }
    static func int(_ value: UInt32) -> SQLiteValue { .int(Int64(value)) }
}

/// A prepared statement (`sqlite3_stmt`), owned by its connection's cache and finalized in `deinit`.
final class SQLiteStatement {
    let handle: OpaquePointer
    let name: String
    unowned let connection: SQLiteConnection

    /// Prepares `sql` to be kept and reused: `sqlite3_prepare_v3` with `SQLITE_PREPARE_PERSISTENT`.
    init(connection: SQLiteConnection, sql: String, name: String) throws(StoreError) {
        self.connection = connection
        self.name = name
        var prepared: OpaquePointer?
        let flags = UInt32(SQLITE_PREPARE_PERSISTENT)
        try connection.check(sqlite3_prepare_v3(connection.handle, sql, -1, flags, &prepared, nil),
                             "preparing \(name) statement")
        guard let prepared else {
            throw StoreError(resultCode: SQLITE_MISUSE, message: "the SQL holds no statement",
                             operation: "preparing \(name) statement", path: connection.path)
        }
        handle = prepared
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `values` to parameters 1, 2, ... (`sqlite3_bind_int64`, `sqlite3_bind_text`, `sqlite3_bind_null`).
    func bind(_ values: [SQLiteValue]) throws(StoreError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .int(let v): rc = sqlite3_bind_int64(handle, index, v)
            case .text(let s): rc = sqlite3_bind_text(handle, index, s, -1, CSQLite_TRANSIENT())
            case .null: rc = sqlite3_bind_null(handle, index)
            }
            try connection.check(rc, "binding parameter \(index) of \(name) statement")
        }
    }

    /// Steps once (`sqlite3_step`): true when a row is ready to read, false when done.
    func step() throws(StoreError) -> Bool {
        try connection.check(sqlite3_step(handle), "running \(name) statement") == SQLITE_ROW
    }

    /// Makes the statement ready for its next use and releases its read snapshot: `sqlite3_reset`,
    /// `sqlite3_clear_bindings`. Errors were already reported by `step`.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// The current row's columns.
    var row: SQLiteRow { SQLiteRow(statement: self) }
}

/// The columns of the row a statement stands on (valid until the next `step` or `reset`).
struct SQLiteRow {
    let statement: SQLiteStatement

    /// `sqlite3_column_int64`.
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement.handle, column) }

    func int(_ column: Int32) -> Int { Int(int64(column)) }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement.handle, column) == SQLITE_NULL }

    /// `sqlite3_column_text` (UTF-8, with `sqlite3_column_bytes`); NULL reads as "".
    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement.handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement.handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
}
