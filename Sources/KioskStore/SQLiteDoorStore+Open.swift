import Foundation
internal import GRDB

extension SQLiteDoorStore {
    /// What opening does when the database file does not exist.
    public enum OpenMode: Sendable {
        /// Refuse a missing file with `StoreError.Kind.missing`: the kiosk and `kioskctl status`, where a typo
        /// in the path would otherwise start an empty roster that turns every guest away.
        case openExisting
        /// Create the file (its folder must exist): `kioskctl roster import` and `kioskctl demo`.
        case createIfMissing
    }

    /// Opens a `DatabasePool` (WAL) on a file or a `DatabaseQueue` in memory: `busy_timeout`, foreign keys,
    /// and `synchronous=FULL` on the writer (set after GRDB's WAL setup, which chooses NORMAL).
    static func openDatabase(path: String, mode: OpenMode, busyTimeout: Duration) throws -> any DatabaseWriter {
        var configuration = Configuration()
        configuration.busyMode = .timeout(seconds(busyTimeout))
        configuration.foreignKeysEnabled = true
        configuration.label = "kiosk store"
        do {
            if path == inMemory { return try DatabaseQueue(configuration: configuration) }
            try checkFile(path, mode: mode)
            let pool = try DatabasePool(path: path, configuration: configuration)
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            return pool
        } catch {
            throw StoreError.wrapping(error, operation: "opening database", path: path)
        }
    }

    /// Checks what SQLite would otherwise silently work around: a missing folder or file (it would create
    /// them) and a file or folder that cannot be written (it would open read-only, or fail later).
    private static func checkFile(_ path: String, mode: OpenMode) throws(StoreError) {
        let files = FileManager.default
        let exists = files.fileExists(atPath: path)
        if !exists && mode == .openExisting {
            throw StoreError(
                kind: .missing, resultCode: ResultCode.SQLITE_CANTOPEN.rawValue,
                message: "the file does not exist", operation: "opening database", path: path)
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw StoreError(
                kind: .folderMissing, resultCode: ResultCode.SQLITE_CANTOPEN.rawValue,
                message: "the folder \(folder) does not exist", operation: "opening database", path: path)
        }
        guard exists else { return }  // created by SQLite
        // WAL needs the -wal and -shm files beside the database, so the folder must be writable too.
        for target in [path, folder] where !files.isWritableFile(atPath: target) {
            throw StoreError(
                kind: .readOnly, resultCode: ResultCode.SQLITE_READONLY.rawValue,
                message: "\(target) is read-only", operation: "opening database", path: path)
        }
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return max(0, Double(seconds) + Double(attoseconds) / 1e18)
    }
}
