import Cryptography
import Foundation
import GRDB
import GRDBSQLite

@testable import KioskStore

/// An encrypted database as a kiosk before page binding (page format 1) left it, commits still in its WAL: made
/// plain with format 1's 32 reserved bytes per page, copied as a crash leaves it, then every page of the file and
/// of the WAL sealed in format 1 as that kiosk's VFS sealed them (the WAL's headers and checksums as SQLite wrote
/// them). Built by hand on purpose: this is the fixture of the upgrade, not the store's code path.
enum FormatOneDatabase {
    /// Makes it at `path` under `key`: `fill` writes what reaches the file (it is checkpointed), then `more`
    /// what stays in the WAL; returns what `more` returns, read before the copy.
    static func make<T>(
        at path: String, key: DatabaseKey, fill: (SQLiteDoorStore) throws -> Void,
        more: (SQLiteDoorStore) throws -> T
    ) throws -> T {
        let staging = try TemporaryFolder()
        let plain = staging.file("kiosk.db")
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            var reserved = Int32(PageCipher.unboundReservedBytes)
            _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserved)
        }
        let store = try SQLiteDoorStore(
            database: try DatabasePool(path: plain, configuration: configuration), path: plain)
        try fill(store)
        try store.database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        let result = try more(store)
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: plain + suffix, toPath: path + suffix) }
        withExtendedLifetime(store) {}

        let cipher = try PageCipher(key: key.pageKey)
        try seal(path, firstPage: 0, stride: PageLayout.size, cipher: cipher)
        try seal(
            path + "-wal", firstPage: PageLayout.walHeader + PageLayout.frameHeader, stride: PageLayout.frame,
            cipher: cipher)
        return result
    }

    /// Seals in place, in format 1, the pages of `file` that start at `firstPage` and every `stride` bytes after.
    private static func seal(_ file: String, firstPage: Int, stride step: Int, cipher: PageCipher) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        try bytes.withUnsafeMutableBytes { all in
            for start in stride(from: firstPage, through: all.count - PageLayout.size, by: step) {
                try cipher.seal(UnsafeMutableRawBufferPointer(rebasing: all[start..<(start + PageLayout.size)]))
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
    }
}
