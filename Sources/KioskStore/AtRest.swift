internal import GRDBSQLite
import Foundation
internal import GRDB
import KioskCrypto

/// What a database file is, checked before SQLite opens it, and the one-time encryption of a plain one.
enum AtRest {
    enum Format: Equatable {
        /// No page yet: a new file.
        case empty
        /// A database from a kiosk before encryption ("SQLite format 3" in the clear).
        case plain
        /// Encrypted, and the key opens its first page.
        case encrypted
    }

    /// Looks at the first page of the file (or, for a file whose pages are all still in the WAL, of the WAL's
    /// first frame). A page that does not open under `pageKey` throws `.wrongKey` before anything is written.
    static func inspect(_ path: String, pageKey: [UInt8]) throws -> Format {
        let cipher = try PageCipher(key: pageKey)
        for (file, offset) in [(path, Int64(0)), (path + "-wal", Int64(PageLayout.walHeader + PageLayout.frameHeader))] {
            var page = readPage(file, at: offset)
            guard !page.isEmpty else { continue }
            if page.starts(with: PageLayout.magic) { return .plain }
            guard page.count == PageLayout.size else {
                guard offset > 0 else { throw notADatabase(path, "its \(page.count) bytes are not a page") }
                continue
            }
            guard page.withUnsafeBytes({ PageCipher.isSealed($0) }) else {
                throw notADatabase(path, "its first page is neither plain SQLite nor an encrypted kiosk page")
            }
            let opened = page.withUnsafeMutableBytes { cipher.open($0) }
            guard opened else {
                throw StoreError(
                    kind: .wrongKey, resultCode: 0,
                    message: "the first page of \(file) fails its AES-GCM check under this key",
                    operation: "checking the database key", path: path)
            }
            return .encrypted
        }
        return .empty
    }

    private static func notADatabase(_ path: String, _ message: String) -> StoreError {
        StoreError(
            kind: .notADatabase, resultCode: 26, message: message, operation: "checking the database key", path: path)
    }

    /// Run on every connection to an encrypted file: a new database gets the cipher's reserved bytes per page
    /// (an existing one keeps what its header says), and temporary data stays in memory, never in a file.
    static func prepareEncrypted(_ db: Database) throws {
        var reserved = Int32(PageCipher.reservedBytes)
        _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserved)
        try db.execute(sql: "PRAGMA temp_store = MEMORY")
    }

    static func fileSize(_ path: String) -> Int64 {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : 0
    }

    /// Up to one page of `file` from `offset`; empty when the file is missing or shorter.
    private static func readPage(_ file: String, at offset: Int64) -> [UInt8] {
        let descriptor = Glibc.open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { Glibc.close(descriptor) }
        var page = [UInt8](repeating: 0, count: PageLayout.size)
        let count = page.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, PageLayout.size, off_t(offset)) }
        return count > 0 ? Array(page.prefix(count)) : []
    }
}
