import Cryptography
internal import GRDBSQLite

/// One open database file or WAL under the encrypting VFS: the real (unix) file it wraps, the cipher, the
/// database's identity (page format and id, shared with the connection's other file) and scratch memory. SQLite
/// uses a file from one connection at a time, so it needs no lock.
///
/// Each page is sealed for its place (`PageLayout`'s binding): the database file's pages for their page number,
/// the WAL's for their frame (its position, page number and commit size), so a page moved to another page,
/// another frame, from the WAL to the database file or from another database does not open. A page that does
/// not open is an error (`SQLITE_IOERR_DATA`), never data, and so is a page of zeros where a sealed page belongs:
/// only WAL recovery may read a frame that does not open, as zeros, which its checksum then refuses.
final class EncryptedFile {
    enum Kind {
        case database
        case wal
    }

    let kind: Kind
    let real: UnsafeMutablePointer<sqlite3_file>
    let identity: DatabaseIdentity
    /// The name the database file is registered under (`DatabaseIdentity`), removed when it closes.
    let registeredName: UnsafePointer<CChar>?
    let cipher: PageCipher
    /// A frame (header and page) of scratch memory.
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: PageLayout.frame, alignment: 16)
    /// The binding of the page being sealed or opened.
    let binding = UnsafeMutableRawBufferPointer.allocate(byteCount: PageLayout.bindingBytes, alignment: 8)
    /// The WAL frame header last written (its page number and commit size are bound into the page that follows),
    /// and where.
    let frameHeader = UnsafeMutableRawBufferPointer.allocate(byteCount: PageLayout.frameHeader, alignment: 8)
    var frameHeaderOffset: Int64?

    init(
        kind: Kind, real: UnsafeMutablePointer<sqlite3_file>, identity: DatabaseIdentity,
        registeredName: UnsafePointer<CChar>?, cipher: PageCipher
    ) {
        self.kind = kind
        self.real = real
        self.identity = identity
        self.registeredName = registeredName
        self.cipher = cipher
    }

    deinit {
        scratch.deallocate()
        binding.deallocate()
        frameHeader.deallocate()
    }

    var methods: sqlite3_io_methods { real.pointee.pMethods.pointee }

    /// Reads and decrypts. A database read lies within one page (a whole page, or part of the header); a WAL
    /// read is the WAL header, a frame header or part of it, a page, or frames with their headers (recovery).
    func read(_ buffer: UnsafeMutableRawPointer, _ count: Int32, _ offset: Int64) -> Int32 {
        switch kind {
        case .database: readDatabase(buffer, Int(count), offset)
        case .wal: readWAL(buffer, Int(count), offset)
        }
    }

    /// Encrypts and writes. SQLite writes the database a whole page at a time, and the WAL as its header, then
    /// each frame's header and page apart; anything else is refused rather than written in the clear.
    func write(_ buffer: UnsafeRawPointer, _ count: Int32, _ offset: Int64) -> Int32 {
        switch kind {
        case .database: writeDatabase(buffer, Int(count), offset)
        case .wal: writeWAL(buffer, Int(count), offset)
        }
    }

    func truncate(_ size: Int64) -> Int32 {
        switch kind {
        case .database: truncateDatabase(size)
        case .wal: methods.xTruncate(real, size)
        }
    }

    // MARK: Pages

    /// Opens a sealed page in place for the place in `binding`. A page of format 1 (a database from before page
    /// binding, read once to rewrite it) opens as it did then: unbound, and a page of zeros stays zeros.
    ///
    /// The reserved tail comes back as zeros, never as the id, nonce and tag it holds on disk: SQLite checksums
    /// each WAL frame over the page as it wrote it, reserved bytes included, and recovers the WAL after a crash by
    /// those checksums. Pages SQLite reads have a zero tail and pages it makes are zeroed, so the tail it writes is
    /// zeros, and a frame read back must have zeros there too; with the nonce left in, a kiosk killed before a
    /// checkpoint lost every commit since (CrashRecoveryTests).
    func open(_ page: UnsafeMutableRawBufferPointer) -> Bool {
        identity.resolve()
        let opened: Bool
        switch identity.format {
        case .unbound:
            opened = cipher.open(page) || page.allSatisfy { $0 == 0 }
        case .bound:
            guard let id = identity.id else { return false }
            opened = cipher.open(page, databaseID: id, binding: UnsafeRawBufferPointer(binding))
        }
        guard opened else { return false }
        UnsafeMutableRawBufferPointer(rebasing: page[(page.count - identity.format.reservedBytes)...])
            .initializeMemory(as: UInt8.self, repeating: 0)
        return true
    }

    /// Seals `page` in place for the place in `binding`, in the database's format. False when it cannot be
    /// sealed: a page 1 without room for the cipher's tail (its last bytes would be overwritten), or a cipher
    /// failure.
    func seal(_ page: UnsafeMutableRawBufferPointer) -> Bool {
        identity.prepareForSealing()
        let format = identity.format
        guard PageLayout.headerFits(UnsafeRawBufferPointer(page), reserved: format.reservedBytes) else { return false }
        do {
            switch format {
            case .unbound:
                try cipher.seal(page)
            case .bound:
                guard let id = identity.id else { return false }
                try cipher.seal(page, databaseID: id, binding: UnsafeRawBufferPointer(binding))
            }
        } catch {
            return false
        }
        return true
    }
}

/// SQLite's extended result codes the encrypting VFS returns.
enum VFSResult {
    static let readError = SQLITE_IOERR | (1 << 8)  // SQLITE_IOERR_READ
    static let shortRead = SQLITE_IOERR | (2 << 8)  // SQLITE_IOERR_SHORT_READ
    static let writeError = SQLITE_IOERR | (3 << 8)  // SQLITE_IOERR_WRITE
    /// A page that does not open: changed, moved, from another database or key, or zeros where a page belongs.
    static let dataError = SQLITE_IOERR | (32 << 8)  // SQLITE_IOERR_DATA
}
