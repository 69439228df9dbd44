/// What the kiosk's local database refused, with the SQLite result code, SQLite's own message and what the
/// store was doing. Its `description` tells an operator what went wrong and what to do about it.
public struct StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The kind of failure, from the SQLite result code (or from the store's own checks).
    public enum Kind: Equatable, Sendable {
        /// The file is not an SQLite database (`SQLITE_NOTADB`).
        case notADatabase
        /// Another connection holds the lock for longer than the busy timeout (`SQLITE_BUSY`, `SQLITE_LOCKED`).
        case busy
        /// The file or its folder cannot be written (`SQLITE_READONLY`, `SQLITE_PERM`, `SQLITE_AUTH`).
        case readOnly
        /// The file is damaged (`SQLITE_CORRUPT`), or holds values the store never writes.
        case corrupt
        /// The file cannot be opened or created (`SQLITE_CANTOPEN`).
        case cannotOpen
        /// The database's folder does not exist (checked before opening).
        case folderMissing
        /// The database file does not exist, and the store was opened with `.openExisting`.
        case missing
        /// The disk or the database is full (`SQLITE_FULL`).
        case diskFull
        /// The operating system failed a read or write (`SQLITE_IOERR`).
        case ioError
        /// A row broke a constraint of the schema (`SQLITE_CONSTRAINT`).
        case constraint
        /// The database's migrations are not the ones this kiosk ships (written by a newer kiosk, or edited).
        case unknownSchema
        /// No database key: no systemd credential and no `database_key_file` (or the file cannot be read).
        case keyMissing
        /// The key file is unsafe or not a key: readable by others, beside the database, not 32 bytes.
        case keyRefused
        /// The key does not open this database: it was encrypted under another key (or its first page is
        /// damaged). Nothing was written.
        case wrongKey
        /// Anything else.
        case other
    }

    public var kind: Kind
    /// The (extended) SQLite result code, e.g. 26 for `SQLITE_NOTADB`, 517 for `SQLITE_BUSY_SNAPSHOT`.
    public var resultCode: Int32
    /// SQLite's message (`sqlite3_errmsg`) or the store's own.
    public var message: String
    /// What the store was doing, e.g. "preparing guest lookup statement".
    public var operation: String
    /// The database file (or ":memory:").
    public var path: String

    public init(kind: Kind, resultCode: Int32, message: String, operation: String, path: String) {
        self.kind = kind
        self.resultCode = resultCode
        self.message = message
        self.operation = operation
        self.path = path
    }

    /// The primary result code (the low 8 bits of `resultCode`), e.g. 5 (`SQLITE_BUSY`) for 517.
    public var primaryResultCode: Int32 { resultCode & 0xFF }

    public var description: String {
        let detail = "\(operation): \(message), SQLite code \(resultCode)"
        switch kind {
        case .notADatabase:
            return "\(path) is not a kiosk database (not SQLite): move it away or point 'database' in kiosk.conf "
                + "elsewhere"
        case .busy:
            return "\(path) is locked by another process (\(detail)): stop the other kiosk or kioskctl using this "
                + "database, then try again"
        case .readOnly:
            return "\(path) cannot be written (\(detail)): make the file and its folder writable by the kiosk's "
                + "user, and check the disk is not mounted read-only"
        case .corrupt:
            return "\(path) is corrupt (\(detail)): stop the kiosk, keep a copy of the file for the organizer "
                + "(it may hold check-ins not yet synced), then point 'database' in kiosk.conf at a new file and "
                + "load the roster again"
        case .cannotOpen:
            return "cannot open \(path) (\(detail)): check the path names a file, not a folder, and that the "
                + "kiosk's user may create files in its folder"
        case .folderMissing:
            return "cannot open \(path): \(message): create the folder, or point 'database' in kiosk.conf elsewhere"
        case .missing:
            return "\(path) does not exist: check the database path for a typo (a new, empty database would turn "
                + "every guest away as not_in_roster), or create it with `kioskctl roster import`"
        case .diskFull:
            return "disk full writing \(path) (\(detail)): free space on the disk; nothing from this step was recorded"
        case .ioError:
            return "the disk failed reading or writing \(path) (\(detail)): check the storage (SD card, USB disk) "
                + "and the system log"
        case .constraint:
            return "\(path) refused a row (\(detail)): this is a bug in the kiosk or bad roster data; report it "
                + "with this message"
        case .unknownSchema:
            return "\(path) has a schema this kiosk does not know (\(message)): upgrade the kiosk software, or "
                + "point 'database' in kiosk.conf elsewhere"
        case .keyMissing:
            return "cannot open \(path): \(message): give the kiosk its key (\"Database key\" in "
                + "/usr/share/doc/kiosk/KEYS.md.gz, docs/KEYS.md in the source): "
                + "LoadCredentialEncrypted=kiosk-db-key:... in its systemd unit, or database_key_file in kiosk.conf "
                + "(32 random bytes, mode 0600, outside the database's folder); the database was not touched"
        case .keyRefused:
            return "refusing the database key (\(operation)): \(message); the database was not touched"
        case .wrongKey:
            return "\(path) does not open with this key (\(message)): it was encrypted under another key; give the "
                + "kiosk the key it was made with (credential kiosk-db-key or database_key_file). The file was not "
                + "changed: do not delete it, it may hold check-ins not yet synced"
        case .other:
            return "database error on \(path) (\(detail))"
        }
    }
}
