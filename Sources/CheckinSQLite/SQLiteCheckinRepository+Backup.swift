import CheckinCore
import Foundation
import GRDB
import SystemCalls

/// What a backup holds, counted in the copy itself once it is written (what the operator reads back).
public struct BackupSummary: Equatable, Sendable {
    public var events: Int
    public var guests: Int
    public var checkIns: Int
    public var checkInEvents: Int
    public var bytes: Int
}

/// What `backup` and `restore` refuse; each names the file and what to do.
public enum BackupError: Error, Equatable, CustomStringConvertible {
    /// The backup's file exists: a backup never overwrites one.
    case backupExists(String)
    /// The file is not an SQLite database (or cannot be read).
    case notADatabase(String, reason: String)
    /// SQLite's own check of the file found damage.
    case damaged(String, report: String)
    /// An SQLite database, but not a check-in server's.
    case notCheckinDatabase(String)
    /// The database to restore into exists and `replacing` was not given.
    case databaseExists(String)

    public var description: String {
        switch self {
        case .backupExists(let path):
            "the backup file \(path) exists: a backup never overwrites one; give a new name or remove it first"
        case .notADatabase(let path, let reason):
            "\(path) is not an SQLite database (\(reason)): give a file that `checkin-server backup` made"
        case .damaged(let path, let report):
            "\(path) is damaged (SQLite's check says: \(report)): restore an older backup"
        case .notCheckinDatabase(let path):
            "\(path) is an SQLite database but not a check-in server's (no migrations table): give a file that "
                + "`checkin-server backup` made"
        case .databaseExists(let path):
            "the database \(path) exists: stop the server, then give --replace to overwrite it with the backup "
                + "(what it holds now is lost)"
        }
    }
}

extension SQLiteCheckinRepository {
    /// Copies the database, online, into a new file at `path` (0600): SQLite's backup API through GRDB, in one
    /// step inside one read transaction, so the copy is the database as one commit left it, while the server
    /// goes on writing. The copy is written aside, checked (`quick_check`), flushed and only then linked under
    /// its name, so `path` is either a whole backup or absent. The secrets key is not in it: keep that apart.
    public func backup(to path: String) throws -> BackupSummary {
        if FileManager.default.fileExists(atPath: path) { throw BackupError.backupExists(path) }
        let temporary = path + ".partial-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { Self.removeDatabaseFiles(temporary) }
        try Self.makePrivate(temporary)
        let copy = try DatabaseQueue(path: temporary)
        try writer.backup(to: copy)
        let summary = try Self.checkedSummary(copy, path: temporary)
        try copy.close()
        try Self.flush(temporary)
        if link(temporary, path) == -1 {
            if errno == EEXIST { throw BackupError.backupExists(path) }
            throw SystemCallError(call: "link \(path)", errno: .init(rawValue: errno))
        }
        var result = summary
        result.bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return result
    }

    /// Brings a backup back into the database at `path`: the backup is checked (an SQLite file, undamaged, a
    /// check-in server's), copied aside and opened as the server would open it (its migrations brought up to
    /// date, its secrets checked against `secrets`: a backup sealed under another key is refused), and only then
    /// copied over `path` through SQLite's backup API (which also replaces what a WAL beside `path` held).
    /// `path` must not exist unless `replacing`.
    public static func restore(
        from backup: String, to path: String, secrets: any SecretSealing, replacing: Bool
    ) throws -> BackupSummary {
        if FileManager.default.fileExists(atPath: path), !replacing { throw BackupError.databaseExists(path) }
        let source = try openBackup(backup)
        let temporary = path + ".restoring-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { removeDatabaseFiles(temporary) }
        try makePrivate(temporary)
        let staged = try DatabaseQueue(path: temporary, configuration: configuration())
        try source.backup(to: staged)
        try source.close()
        // Opened as the server opens a database: migrated, its secrets key checked.
        _ = try SQLiteCheckinRepository(writer: staged, secrets: secrets)
        let summary = try checkedSummary(staged, path: backup)
        try makePrivate(path)
        let target = try DatabaseQueue(path: path, configuration: configuration())
        try staged.backup(to: target)
        try target.close()
        try staged.close()
        try makePrivate(path)
        var result = summary
        result.bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return result
    }

    /// The backup file, read only, once SQLite has read and checked it and found a check-in server's schema.
    static func openBackup(_ path: String) throws -> DatabaseQueue {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw BackupError.notADatabase(path, reason: "no such file, or not readable by this user")
        }
        var configuration = configuration()
        configuration.readonly = true
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            _ = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
        } catch let error as DatabaseError {
            throw BackupError.notADatabase(path, reason: error.message ?? "\(error.resultCode)")
        }
        let report = try queue.read { try String.fetchAll($0, sql: "PRAGMA quick_check") }
        guard report == ["ok"] else {
            throw BackupError.damaged(path, report: report.prefix(3).joined(separator: "; "))
        }
        guard try queue.read({ try $0.tableExists("grdb_migrations") && $0.tableExists("guest") }) else {
            throw BackupError.notCheckinDatabase(path)
        }
        return queue
    }

    /// SQLite's check of the copy, then what it holds.
    static func checkedSummary(_ database: DatabaseQueue, path: String) throws -> BackupSummary {
        try database.read { db in
            let report = try String.fetchAll(db, sql: "PRAGMA quick_check")
            guard report == ["ok"] else {
                throw BackupError.damaged(path, report: report.prefix(3).joined(separator: "; "))
            }
            func count(_ table: String) throws -> Int {
                try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0
            }
            return BackupSummary(
                events: try count("event"), guests: try count("guest"), checkIns: try count("check_in"),
                checkInEvents: try count("check_in_event"), bytes: 0)
        }
    }

    /// fsync of a file, so that what is linked under the backup's name is on disk.
    static func flush(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemCallError(call: "open \(path)", errno: .init(rawValue: errno)) }
        defer { close(fd) }
        if fsync(fd) == -1 { throw SystemCallError(call: "fsync \(path)", errno: .init(rawValue: errno)) }
    }

    static func removeDatabaseFiles(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }
}
