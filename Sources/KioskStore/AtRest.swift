import Cryptography
import Foundation
internal import GRDB
internal import GRDBSQLite

/// What a database file is, checked before SQLite opens it, and the one-time encryption of a plain one.
enum AtRest {
    enum Format: Equatable {
        /// No page yet: a new file.
        case empty
        /// A database from a kiosk before encryption ("SQLite format 3" in the clear).
        case plain
        /// Encrypted, each page bound to its database and place (page format 2), and the key opens its first page.
        case encrypted
        /// Encrypted before pages were bound (page format 1), and the key opens its first page: rewritten in
        /// format 2 before use (`bindPages`).
        case encryptedUnbound
    }

    /// Looks at the first page of the file (or, for a file whose pages are all still in the WAL, of the WAL's
    /// first frame). A page that does not open under `pageKey` throws `.wrongKey` before anything is written.
    static func inspect(_ path: String, pageKey: [UInt8]) throws -> Format {
        let cipher = try PageCipher(key: pageKey)
        // The file's first pages: page 1 decides; the others tell a damaged page 1 from another key.
        let head = readDatabasePages(path, count: 8)
        let walFrame = readWALFrame(path + "-wal", at: Int64(PageLayout.walHeader))
        let inWAL = head.isEmpty
        let first = inWAL ? Array(walFrame.dropFirst(PageLayout.frameHeader)) : Array(head.prefix(PageLayout.size))
        guard !first.isEmpty else { return .empty }
        if first.starts(with: PageLayout.magic) { return .plain }
        guard first.count == PageLayout.size else {
            guard inWAL else { throw notADatabase(path, "its \(first.count) bytes are not a page") }
            return .empty  // a torn first frame: SQLite's recovery ignores it
        }
        guard let format = first.withUnsafeBytes({ PageCipher.format(of: $0) }) else {
            throw notADatabase(path, "its first page is neither plain SQLite nor an encrypted kiosk page")
        }
        // Whether `page` opens at the place `binding` says, under the id in its own tail.
        func opens(_ page: [UInt8], _ binding: [UInt8]) -> Bool {
            var page = page
            return page.withUnsafeMutableBytes { bytes in
                switch format {
                case .unbound:
                    return cipher.open(bytes)
                case .bound:
                    guard let id = PageCipher.databaseID(of: UnsafeRawBufferPointer(bytes)) else { return false }
                    return id.withUnsafeBytes { id in
                        binding.withUnsafeBytes { cipher.open(bytes, databaseID: id, binding: $0) }
                    }
                }
            }
        }
        let firstBinding =
            inWAL
            ? PageLayout.walBinding(frame: 0, header: Array(walFrame.prefix(8)))
            : PageLayout.databaseBinding(page: 1)
        if opens(first, firstBinding) { return format == .bound ? .encrypted : .encryptedUnbound }
        let othersOpen = stride(from: PageLayout.size, to: head.count - PageLayout.size + 1, by: PageLayout.size)
            .contains { start in
                let number = UInt32(start / PageLayout.size + 1)
                return opens(Array(head[start..<(start + PageLayout.size)]), PageLayout.databaseBinding(page: number))
            }
        if othersOpen {
            throw StoreError(
                kind: .corrupt, resultCode: 11,
                message: "page 1 fails its AES-GCM check while other pages open under this key (damaged or changed)",
                operation: "checking the database key", path: path)
        }
        throw StoreError(
            kind: .wrongKey, resultCode: 0,
            message: "the first pages of \((inWAL ? path + "-wal" : path)) fail their AES-GCM check under this key",
            operation: "checking the database key", path: path)
    }

    private static func notADatabase(_ path: String, _ message: String) -> StoreError {
        StoreError(
            kind: .notADatabase, resultCode: 26, message: message, operation: "checking the database key", path: path)
    }

    /// Run on every connection to an encrypted file: a new database gets the cipher's reserved bytes per page
    /// (format 2's; an existing one keeps what its header says), and temporary data stays in memory, never in a
    /// file.
    static func prepareEncrypted(_ db: Database) throws {
        var reserved = Int32(PageCipher.reservedBytes)
        _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserved)
        try db.execute(sql: "PRAGMA temp_store = MEMORY")
    }

    static func fileSize(_ path: String) -> Int64 {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : 0
    }

    /// Up to the first `pages` pages of a database file, read through the unix VFS rather than a descriptor of our own:
    /// closing any descriptor of a database file drops every POSIX lock this process holds on it (those of
    /// SQLite's connections, e.g. the door's while the sync worker opens), and SQLite's unix VFS keeps such a
    /// descriptor open until its locks are gone.
    private static func readDatabasePages(_ path: String, count pages: Int) -> [UInt8] {
        EncryptingVFS.register()
        let vfs = EncryptingVFS.real!
        let slot = UnsafeMutableRawPointer.allocate(byteCount: Int(vfs.pointee.szOsFile), alignment: 16)
        slot.initializeMemory(as: UInt8.self, repeating: 0, count: Int(vfs.pointee.szOsFile))
        // The unix VFS keeps the name's pointer while the file is open.
        let name = strdup(path)
        defer {
            free(name)
            slot.deallocate()
        }
        let file = slot.bindMemory(to: sqlite3_file.self, capacity: 1)
        var outFlags: Int32 = 0
        guard vfs.pointee.xOpen(vfs, name, file, SQLITE_OPEN_READONLY | SQLITE_OPEN_MAIN_DB, &outFlags) == SQLITE_OK
        else {
            if file.pointee.pMethods != nil { _ = file.pointee.pMethods.pointee.xClose(file) }
            return []
        }
        defer { _ = file.pointee.pMethods.pointee.xClose(file) }
        var size: Int64 = 0
        guard file.pointee.pMethods.pointee.xFileSize(file, &size) == SQLITE_OK else { return [] }
        let count = Int(min(Int64(PageLayout.size * pages), size))
        guard count > 0 else { return [] }
        var page = [UInt8](repeating: 0, count: count)
        let code = page.withUnsafeMutableBytes {
            file.pointee.pMethods.pointee.xRead(file, $0.baseAddress, Int32(count), 0)
        }
        return code == SQLITE_OK ? page : []
    }

    /// Up to one frame (header and page) of a WAL from `offset` (SQLite holds no POSIX lock on a WAL); empty when
    /// missing, shorter when the file is.
    private static func readWALFrame(_ file: String, at offset: Int64) -> [UInt8] {
        let descriptor = Glibc.open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { Glibc.close(descriptor) }
        var frame = [UInt8](repeating: 0, count: PageLayout.frame)
        let count = frame.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, PageLayout.frame, off_t(offset)) }
        return count > PageLayout.frameHeader ? Array(frame.prefix(count)) : []
    }
}
