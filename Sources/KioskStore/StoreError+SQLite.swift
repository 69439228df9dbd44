internal import CSQLite

extension StoreError.Kind {
    /// The kind of a (primary or extended) SQLite result code.
    init(resultCode: Int32) {
        switch resultCode & 0xFF {
        case SQLITE_NOTADB: self = .notADatabase
        case SQLITE_BUSY, SQLITE_LOCKED: self = .busy
        case SQLITE_READONLY, SQLITE_PERM, SQLITE_AUTH: self = .readOnly
        case SQLITE_CORRUPT: self = .corrupt
        case SQLITE_CANTOPEN: self = .cannotOpen
        case SQLITE_FULL: self = .diskFull
        case SQLITE_IOERR: self = .ioError
        case SQLITE_CONSTRAINT: self = .constraint
        default: self = .other
        }
    }
}

extension StoreError {
    /// An error for an SQLite result code; the kind follows from the code.
    init(resultCode: Int32, message: String, operation: String, path: String) {
        self.init(kind: Kind(resultCode: resultCode), resultCode: resultCode, message: message,
                  operation: operation, path: path)
    }

    /// A value in the file that the store never writes: treated as corruption.
    static func corruptValue(_ what: String, operation: String, path: String) -> StoreError {
        StoreError(kind: .corrupt, resultCode: SQLITE_CORRUPT, message: what, operation: operation, path: path)
    }
}
