internal import GRDB
import KioskCSV

extension StoreError.Kind {
    /// The kind of a (primary or extended) SQLite result code.
    init(resultCode: Int32) {
        // SQLITE_IOERR_DATA: the encrypting VFS found a page that fails its check (changed, moved, from another
        // database, zeroed): the file's content is wrong, not the disk.
        if resultCode == Self.pageCheckFailed {
            self = .corrupt
            return
        }
        switch ResultCode(rawValue: resultCode).primaryResultCode {
        case .SQLITE_NOTADB: self = .notADatabase
        case .SQLITE_BUSY, .SQLITE_LOCKED: self = .busy
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH: self = .readOnly
        case .SQLITE_CORRUPT: self = .corrupt
        case .SQLITE_CANTOPEN: self = .cannotOpen
        case .SQLITE_FULL: self = .diskFull
        case .SQLITE_IOERR: self = .ioError
        case .SQLITE_CONSTRAINT: self = .constraint
        default: self = .other
        }
    }

    /// SQLITE_IOERR_DATA (SQLITE_IOERR | 32 << 8).
    static let pageCheckFailed: Int32 = 10 | (32 << 8)
}

extension StoreError {
    /// An error for an SQLite result code; the kind follows from the code.
    init(resultCode: Int32, message: String, operation: String, path: String) {
        self.init(
            kind: Kind(resultCode: resultCode), resultCode: resultCode, message: message,
            operation: operation, path: path)
    }

    /// What GRDB reported (`DatabaseError`, with SQLite's extended result code and message), as a StoreError
    /// that says what the store was doing and on which file.
    init(_ error: DatabaseError, operation: String, path: String) {
        self.init(
            resultCode: error.extendedResultCode.rawValue, message: error.message ?? "\(error.resultCode)",
            operation: operation, path: path)
    }

    /// A value in the file that the store never writes: treated as corruption.
    static func corruptValue(_ what: String, operation: String, path: String) -> StoreError {
        StoreError(
            kind: .corrupt, resultCode: ResultCode.SQLITE_CORRUPT.rawValue, message: what,
            operation: operation, path: path)
    }

    /// Any error thrown while the store was doing `operation` on `path`, as a StoreError; a roster file's
    /// `RosterImportError` passes through unchanged.
    static func wrapping(_ error: any Error, operation: String, path: String) -> any Error {
        switch error {
        case let error as DatabaseError:
            return StoreError(error, operation: operation, path: path)
        case var error as StoreError:
            if error.path.isEmpty { error.path = path }
            if error.operation == "reading a row" { error.operation = operation }
            return error
        case is RosterImportError:
            return error
        default:
            return StoreError(kind: .other, resultCode: 0, message: "\(error)", operation: operation, path: path)
        }
    }
}
