import Cryptography
import Foundation
internal import GRDB
internal import GRDBSQLite

extension AtRest {
    /// Encrypts a plain database (from a kiosk before encryption) in place, losing nothing, queue included
    /// (`rewrite`).
    static func encryptPlainDatabase(
        _ path: String, keyID: Int, busyTimeout: TimeInterval, migrations: [Migration]
    ) throws {
        try rewrite(
            path, from: path, keyID: keyID, busyTimeout: busyTimeout, migrations: migrations,
            operation: "encrypting the database")
    }

    /// Rewrites an encrypted database whose pages are not bound to their place (page format 1, from a kiosk
    /// before page binding) in format 2 in place, losing nothing, queue included (`rewrite`): its pages are read
    /// through the encrypting VFS, which opens format 1 for this (and writes it only to checkpoint the old WAL),
    /// and the copy gets a database id of its own.
    static func bindPages(_ path: String, keyID: Int, busyTimeout: TimeInterval, migrations: [Migration]) throws {
        try rewrite(
            path, from: EncryptingVFS.uri(path: path, key: keyID), keyID: keyID, busyTimeout: busyTimeout,
            migrations: migrations, operation: "binding the database's pages to their place")
    }

    /// Rewrites the database at `path` (opened at `source`: the path itself, or its URI through the encrypting
    /// VFS) in place as an encrypted database in page format 2:
    ///
    /// 1. The old file's migrations are checked (a database from a newer kiosk is refused untouched), and its
    ///    WAL is checkpointed into it and truncated.
    /// 2. A second connection takes the write lock and keeps it to the end, so no kiosk or kioskctl can commit
    ///    to the old file meanwhile. `VACUUM INTO` copies every row into `PATH.encrypting` through the
    ///    encrypting VFS, with the cipher's reserved bytes per page (its sorts in memory, never in a plain
    ///    temporary file); the copy turns to WAL mode, is checked (`quick_check`, the same number of rows in
    ///    every table) and synced.
    /// 3. It is renamed over the old file (one atomic step: a crash leaves either file whole), the folder is
    ///    synced, and the old file's bytes, still open, are overwritten with zeros and synced.
    ///
    /// A failure before step 3 leaves the old file as it was (the partial copy is removed); the kiosk tries
    /// again at its next open.
    private static func rewrite(
        _ path: String, from source: String, keyID: Int, busyTimeout: TimeInterval, migrations: [Migration],
        operation: String
    ) throws {
        let copy = path + ".encrypting"
        removeLeftovers(of: copy)
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "kiosk store (\(operation))"
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA temp_store = MEMORY") }
        let old = try DatabaseQueue(path: source, configuration: configuration)
        try old.writeWithoutTransaction { db in
            try KioskMigrator(migrations: migrations).checkKnown(db)
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        var holding = configuration
        holding.allowsUnsafeTransactions = true  // the write lock is held across calls, on purpose
        let writeLock = try DatabaseQueue(path: source, configuration: holding)
        try writeLock.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        defer {
            try? writeLock.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
            try? writeLock.close()
        }
        let counts: [String: Int]
        do {
            counts = try old.writeWithoutTransaction { db in
                // The copy's page size, then its reserved bytes (setting the page size resets the reserve asked).
                try db.execute(sql: "PRAGMA page_size = \(PageLayout.size)")
                var reserved = Int32(PageCipher.reservedBytes)
                _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserved)
                let counts = try rowCounts(db)
                try db.execute(sql: "VACUUM INTO ?", arguments: [EncryptingVFS.uri(path: copy, key: keyID)])
                return counts
            }
            try finish(copy, keyID: keyID, expecting: counts, operation: operation)
        } catch {
            try? old.close()
            removeLeftovers(of: copy)
            throw error
        }
        let oldBytes = Glibc.open(path, O_RDWR | O_CLOEXEC)
        defer { if oldBytes >= 0 { Glibc.close(oldBytes) } }
        guard rename(copy, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? old.close()
            removeLeftovers(of: copy)
            throw StoreError(
                kind: .ioError, resultCode: 0, message: "renaming the encrypted copy into place: \(reason)",
                operation: operation, path: path)
        }
        syncFolder(of: path)
        try? old.close()
        if oldBytes >= 0 { wipe(oldBytes) }
    }

    /// Turns the encrypted copy to WAL (its journal in memory: the copy is not in place yet), then checks it.
    private static func finish(_ copy: String, keyID: Int, expecting counts: [String: Int], operation: String) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try prepareEncrypted(db) }
        let encrypted = try DatabaseQueue(path: EncryptingVFS.uri(path: copy, key: keyID), configuration: configuration)
        try encrypted.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = MEMORY")
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            let check = try String.fetchOne(db, sql: "PRAGMA quick_check")
            let copied = try rowCounts(db)
            guard check == "ok", copied == counts else {
                throw StoreError(
                    kind: .corrupt, resultCode: 0,
                    message: "the encrypted copy differs (quick_check: \(check ?? "none"), rows \(copied) "
                        + "instead of \(counts)); the old database was kept",
                    operation: operation, path: copy)
            }
        }
        try encrypted.close()
        let descriptor = Glibc.open(copy, O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            Glibc.close(descriptor)
        }
    }

    /// Rows per table, to show the copy kept every one.
    private static func rowCounts(_ db: Database) throws -> [String: Int] {
        let tables = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        var counts: [String: Int] = [:]
        for table in tables {
            counts[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \"\(table)\"") ?? 0
        }
        return counts
    }

    /// Overwrites an unlinked old file's bytes with zeros and syncs them, so its blocks no longer hold the roster
    /// in the clear or in unbound pages (on flash storage the controller may still keep old copies: see
    /// SECURITY.md).
    private static func wipe(_ descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return }
        let zeros = [UInt8](repeating: 0, count: 1 << 16)
        var offset: off_t = 0
        while offset < status.st_size {
            let count = min(zeros.count, Int(status.st_size - offset))
            let written = zeros.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, count, offset) }
            guard written > 0 else { break }
            offset += off_t(written)
        }
        fsync(descriptor)
    }

    private static func syncFolder(of path: String) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let descriptor = Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        Glibc.close(descriptor)
    }

    private static func removeLeftovers(of copy: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(copy + suffix) }
    }
}
