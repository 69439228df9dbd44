import Foundation
internal import GRDB
import KioskCore

extension SQLiteDoorStore {
    /// What opening does when the database file does not exist.
    public enum OpenMode: Sendable {
        /// Refuse a missing file with `StoreError.Kind.missing`: the kiosk and `kioskctl status`, where a typo
        /// in the path would otherwise start an empty roster that turns every guest away.
        case openExisting
        /// Create the file (its folder must exist): `kioskctl roster import` and `kiosk-demo`.
        case createIfMissing
    }

    /// Opens the database `configuration` names, under the key it names (`DatabaseKey.load(for:)`). The path is
    /// checked first, so a typo in it is reported as such rather than as a key problem. Creating a new database
    /// (`kioskctl roster import`, `enroll`, `kiosk-demo`) without a systemd credential also creates its
    /// `database_key_file` if that is missing; an existing database never gets a new key.
    public convenience init(
        configuration: KioskConfiguration, mode: OpenMode, busyTimeout: Duration = .seconds(2)
    ) throws {
        let path = configuration.resolve(configuration.database)
        try Self.checkFile(path, mode: mode)
        if mode == .createIfMissing, !FileManager.default.fileExists(atPath: path) {
            try DatabaseKey.createFileIfMissing(for: configuration)
        }
        try self.init(path: path, mode: mode, key: try DatabaseKey.load(for: configuration), busyTimeout: busyTimeout)
    }

    /// Opens a `DatabasePool` (WAL) on a file or a `DatabaseQueue` in memory: `busy_timeout`, foreign keys,
    /// and `synchronous=FULL` on the writer (set after GRDB's WAL setup, which chooses NORMAL). A file goes
    /// through the encrypting VFS under `key`, after its key is checked against the file, and a plain file is
    /// encrypted or a file of unbound pages rewritten with bound ones (`AtRest`); temporary tables and sorts stay
    /// in memory (`temp_store=MEMORY`).
    static func openDatabase(
        path: String, mode: OpenMode, key: DatabaseKey?, busyTimeout: Duration, migrations: [Migration]
    ) throws -> (any DatabaseWriter, keyID: Int?) {
        var configuration = Configuration()
        configuration.busyMode = .timeout(seconds(busyTimeout))
        configuration.foreignKeysEnabled = true
        configuration.label = "kiosk store"
        if path == inMemory {
            do {
                return (try DatabaseQueue(configuration: configuration), nil)
            } catch {
                throw StoreError.wrapping(error, operation: "opening database", path: path)
            }
        }
        try checkFile(path, mode: mode)
        guard let key else {
            throw StoreError(
                kind: .keyMissing, resultCode: 0, message: "no database key was given",
                operation: "opening database", path: path)
        }
        let keyID = EncryptingVFS.remember(pageKey: key.pageKey)
        do {
            switch try AtRest.inspect(path, pageKey: key.pageKey) {
            case .plain:
                try AtRest.encryptPlainDatabase(
                    path, keyID: keyID, busyTimeout: seconds(busyTimeout), migrations: migrations)
            case .encryptedUnbound:
                try AtRest.bindPages(path, keyID: keyID, busyTimeout: seconds(busyTimeout), migrations: migrations)
            case .empty, .encrypted:
                break
            }
            configuration.prepareDatabase { db in try AtRest.prepareEncrypted(db) }
            let pool = try DatabasePool(path: EncryptingVFS.uri(path: path, key: keyID), configuration: configuration)
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            return (pool, keyID)
        } catch {
            EncryptingVFS.forget(keyID)
            throw StoreError.wrapping(error, operation: "opening database", path: path)
        }
    }

    /// A new file keeps its first pages in the WAL until a checkpoint: write them into the file, so its page 1
    /// checks the key at the next open even if the WAL is lost.
    func checkpointIfNew() throws {
        guard keyID != nil, AtRest.fileSize(path) < Int64(PageLayout.size) else { return }
        try run("writing the new database's first pages") {
            try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)") }
        }
    }

    /// Checks what SQLite would otherwise silently work around: a missing folder or file (it would create
    /// them) and a file or folder that cannot be written (it would open read-only, or fail later).
    static func checkFile(_ path: String, mode: OpenMode) throws(StoreError) {
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

    static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return max(0, Double(seconds) + Double(attoseconds) / 1e18)
    }
}
