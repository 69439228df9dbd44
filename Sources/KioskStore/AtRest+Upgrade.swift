import Foundation
internal import GRDB
internal import GRDBSQLite
import KioskCrypto

extension AtRest {
    /// Encrypts a plain database (from a kiosk before encryption) in place, losing nothing, queue included:
    ///
    /// 1. The plain file's migrations are checked (a database from a newer kiosk is refused untouched), and its
    ///    WAL is checkpointed into it and truncated.
    /// 2. A second connection takes the write lock and keeps it to the end, so no kiosk or kioskctl can commit
    ///    to the plain file meanwhile. `VACUUM INTO` copies every row into `PATH.encrypting` through the
    ///    encrypting VFS, with the cipher's reserved bytes per page; the copy turns to WAL mode, is checked
    ///    (`quick_check`, the same number of rows in every table) and synced.
    /// 3. It is renamed over the plain file (one atomic step: a crash leaves either file whole), the folder is
    ///    synced, and the old file's bytes, still open, are overwritten with zeros and synced.
    ///
    /// A failure before step 3 leaves the plain file as it was (the partial copy is removed); the kiosk tries
    /// again at its next open.
    static func encryptPlainDatabase(
        _ path: String, keyID: Int, busyTimeout: TimeInterval, migrations: [Migration]
    ) throws {
        let copy = path + ".encrypting"
        removeLeftovers(of: copy)
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "kiosk store (encrypting a plain database)"
        let plain = try DatabaseQueue(path: path, configuration: configuration)
        try plain.writeWithoutTransaction { db in
            try KioskMigrator(migrations: migrations).checkKnown(db)
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        var holding = configuration
        holding.allowsUnsafeTransactions = true  // the write lock is held across calls, on purpose
        let writeLock = try DatabaseQueue(path: path, configuration: holding)
        try writeLock.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        defer {
            try? writeLock.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
            try? writeLock.close()
        }
        let counts: [String: Int]
        do {
            counts = try plain.writeWithoutTransaction { db in
                // The copy's page size, then its reserved bytes (setting the page size resets the reserve asked).
                try db.execute(sql: "PRAGMA page_size = \(PageLayout.size)")
                var reserved = Int32(PageCipher.reservedBytes)
                _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserved)
                let counts = try rowCounts(db)
                try db.execute(sql: "VACUUM INTO ?", arguments: [EncryptingVFS.uri(path: copy, key: keyID)])
                return counts
            }
            try finish(copy, keyID: keyID, expecting: counts)
        } catch {
            try? plain.close()
            removeLeftovers(of: copy)
            throw error
        }
        let old = Glibc.open(path, O_RDWR | O_CLOEXEC)
        defer { if old >= 0 { Glibc.close(old) } }
        guard rename(copy, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? plain.close()
            removeLeftovers(of: copy)
            throw StoreError(
                kind: .ioError, resultCode: 0, message: "renaming the encrypted copy into place: \(reason)",
                operation: "encrypting the database", path: path)
        }
        syncFolder(of: path)
        try? plain.close()
        if old >= 0 { wipe(old) }
    }

    /// Turns the encrypted copy to WAL (its journal in memory: the copy is not in place yet), then checks it.
    private static func finish(_ copy: String, keyID: Int, expecting counts: [String: Int]) throws {
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
                        + "instead of \(counts)); the plain database was kept",
                    operation: "encrypting the database", path: copy)
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

    /// Overwrites an unlinked plain file's bytes with zeros and syncs them, so its blocks no longer hold the
    /// roster (on flash storage the controller may still keep old copies: see SECURITY.md).
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
