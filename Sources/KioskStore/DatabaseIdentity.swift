import Cryptography
internal import GRDBSQLite
import Glibc
import Synchronization

/// Which database the pages of a database file and its WAL belong to: their page format and, in format 2, the
/// database's random 16-byte id, which every page carries in its tail and binds into its seal, so a page of
/// another database under the same key (another kiosk's card, a copy, the file before a rebuild) does not open.
///
/// It is read from the disk, never chosen twice: from the tail of page 1 of the database file, else (a new
/// database whose pages are all still in the WAL) of the WAL's first frame. A database with neither gets a new
/// id when its first page is sealed, which SQLite does only under its write lock, so every connection and
/// process of one database reads or makes the same id. A page whose tail holds another id does not open.
///
/// A connection's database file and its WAL share one identity: SQLite opens the database file first and names
/// its WAL with a string from which `sqlite3_filename_database` gives back the pointer the database file was
/// opened with (`lookUp(walName:)`). One connection uses it at a time (SQLite calls a connection's files from one
/// thread at a time), hence `@unchecked Sendable`: the registry only hands it from the database file to its WAL.
final class DatabaseIdentity: @unchecked Sendable {
    /// The page format of the database's pages: format 2 (bound) for a new database.
    private(set) var format = PageCipher.Format.bound
    private(set) var known = false
    /// The database file (the unix VFS's), to read page 1 from; nil once it is closed.
    private var database: UnsafeMutablePointer<sqlite3_file>?
    private let walPath: String
    private let idBytes = UnsafeMutableRawBufferPointer.allocate(byteCount: PageCipher.databaseIDBytes, alignment: 8)

    /// The identity of the database file `database` at `path` (as SQLite named it).
    init(database: UnsafeMutablePointer<sqlite3_file>, path: String) {
        self.database = database
        walPath = path + "-wal"
        idBytes.initializeMemory(as: UInt8.self, repeating: 0)
    }

    deinit { idBytes.deallocate() }

    /// The database id, once known (format 2 only).
    var id: UnsafeRawBufferPointer? { known && format == .bound ? UnsafeRawBufferPointer(idBytes) : nil }

    /// Learns the format and id from the disk if they are not known yet (a page that opens needs them).
    func resolve() {
        guard !known else { return }
        // The last 64 bytes of a page hold either format's tail.
        var tail = [UInt8](repeating: 0, count: 64)
        let inFile = tail.withUnsafeMutableBytes { bytes -> Bool in
            guard let database else { return false }
            let offset = Int64(PageLayout.size - bytes.count)
            return database.pointee.pMethods.pointee.xRead(database, bytes.baseAddress, Int32(bytes.count), offset)
                == SQLITE_OK
        }
        if inFile, learn(from: tail) { return }
        // The WAL has no POSIX locks (SQLite locks the database file and the -shm), so a descriptor of our own on
        // it is safe to close.
        let descriptor = Glibc.open(walPath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { Glibc.close(descriptor) }
        let offset = PageLayout.walHeader + PageLayout.frame - tail.count
        let count = tail.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        if count == tail.count { _ = learn(from: tail) }
    }

    /// Learns, then makes a new id if the database has no page yet: called before a page is sealed. A database
    /// file that has a page 1 whose tail names no format (damaged or changed) gets no new id, so its pages are not
    /// sealed under one (the write fails); a WAL's torn first frame is no page: SQLite's recovery drops it.
    func prepareForSealing() {
        resolve()
        guard !known, let database else { return }
        var size: Int64 = 0
        guard database.pointee.pMethods.pointee.xFileSize(database, &size) == SQLITE_OK, size < PageLayout.size
        else { return }
        var generator = SystemRandomNumberGenerator()
        for index in idBytes.indices { idBytes[index] = UInt8.random(in: 0...255, using: &generator) }
        format = .bound
        known = true
    }

    /// Takes the format (and id) from the tail of a sealed page; false when `tail` ends no sealed page.
    private func learn(from tail: [UInt8]) -> Bool {
        tail.withUnsafeBytes { bytes in
            switch PageCipher.format(of: bytes) {
            case .unbound:
                format = .unbound
            case .bound:
                guard let id = PageCipher.databaseID(of: bytes) else { return false }
                idBytes.copyBytes(from: id)
                format = .bound
            case nil:
                return false
            }
            known = true
            return true
        }
    }

    /// The database file is closing: its WAL (closed before it) must not read it any more.
    func databaseClosed() { database = nil }

    // MARK: Registry

    /// The identities of the open database files, by the address of the name SQLite opened each with.
    private static let open = Mutex<[UInt: DatabaseIdentity]>([:])

    static func register(_ identity: DatabaseIdentity, name: UnsafePointer<CChar>) {
        open.withLock { $0[UInt(bitPattern: name)] = identity }
    }

    static func remove(name: UnsafePointer<CChar>) {
        _ = open.withLock { $0.removeValue(forKey: UInt(bitPattern: name)) }
    }

    /// The identity of the database whose WAL SQLite opens under `walName`.
    static func lookUp(walName: UnsafePointer<CChar>) -> DatabaseIdentity? {
        guard let database = sqlite3_filename_database(walName) else { return nil }
        return open.withLock { $0[UInt(bitPattern: database)] }
    }
}
