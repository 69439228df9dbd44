internal import GRDBSQLite
import KioskCrypto

/// One open database file or WAL under the encrypting VFS: the real (unix) file it wraps, the cipher and a
/// page of scratch memory. SQLite uses a file from one connection at a time, so it needs no lock.
final class EncryptedFile {
    enum Kind {
        case database
        case wal
    }

    let kind: Kind
    let real: UnsafeMutablePointer<sqlite3_file>
    private let cipher: PageCipher
    private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: PageLayout.size, alignment: 16)

    init(kind: Kind, real: UnsafeMutablePointer<sqlite3_file>, cipher: PageCipher) {
        self.kind = kind
        self.real = real
        self.cipher = cipher
    }

    deinit { scratch.deallocate() }

    private var methods: sqlite3_io_methods { real.pointee.pMethods.pointee }

    // MARK: Reading

    /// Reads and decrypts. A database read lies within one page (a whole page, or part of the header); a WAL
    /// read is the WAL header, a frame header, a page, or a frame header and its page (recovery).
    func read(_ buffer: UnsafeMutableRawPointer, _ count: Int32, _ offset: Int64) -> Int32 {
        switch kind {
        case .database: return readDatabase(buffer, Int(count), offset)
        case .wal: return readWAL(buffer, Int(count), offset)
        }
    }

    private func readDatabase(_ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: Int64) -> Int32 {
        let size = Int64(PageLayout.size)
        let pageStart = offset / size * size
        guard offset + Int64(count) <= pageStart + size else { return SQLITE_IOERR | (1 << 8) }  // _READ
        let whole = offset == pageStart && count == PageLayout.size
        let page = whole ? UnsafeMutableRawBufferPointer(start: buffer, count: PageLayout.size) : scratch
        let code = methods.xRead(real, page.baseAddress, Int32(PageLayout.size), pageStart)
        if code == SQLITE_IOERR | (2 << 8) {  // SQLITE_IOERR_SHORT_READ: past the end, or a torn last page
            buffer.initializeMemory(as: UInt8.self, repeating: 0, count: count)
            return code
        }
        guard code == SQLITE_OK else { return code }
        guard decrypt(page) else { return SQLITE_IOERR | (32 << 8) }  // SQLITE_IOERR_DATA
        if !whole { buffer.copyMemory(from: page.baseAddress! + Int(offset - pageStart), byteCount: count) }
        return SQLITE_OK
    }

    private func readWAL(_ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: Int64) -> Int32 {
        let code = methods.xRead(real, buffer, Int32(count), offset)
        let short = code == SQLITE_IOERR | (2 << 8)
        guard code == SQLITE_OK || short else { return code }
        let range = offset..<(offset + Int64(count))
        for page in PageLayout.walPages(meeting: range) {
            guard range.contains(page.lowerBound), page.upperBound <= range.upperBound else {
                return SQLITE_IOERR | (1 << 8)  // SQLITE_IOERR_READ: part of a page, never asked for
            }
            let bytes = UnsafeMutableRawBufferPointer(
                start: buffer + Int(page.lowerBound - offset), count: PageLayout.size)
            guard !decrypt(bytes) else { continue }
            // Recovery reads a frame with its header: a frame that does not open (torn by a power cut, or left
            // from before the WAL restarted) reads as zeros, which its checksum refuses, as SQLite expects. A page
            // read alone belongs to a committed frame: one that does not open is an error, never zeros.
            guard page.lowerBound - Int64(PageLayout.frameHeader) >= offset else { return SQLITE_IOERR | (32 << 8) }
            bytes.initializeMemory(as: UInt8.self, repeating: 0)
        }
        return code
    }

    /// Opens a sealed page in place; a page of zeros (never written: a hole, or past the end) stays zeros.
    ///
    /// The reserved tail comes back as zeros, never as the nonce and tag it holds on disk: SQLite checksums each
    /// WAL frame over the page as it wrote it, reserved bytes included, and recovers the WAL after a crash by those
    /// checksums. Pages SQLite reads have a zero tail and pages it makes are zeroed, so the tail it writes is
    /// zeros, and a frame read back must have zeros there too; with the nonce left in, a kiosk killed before a
    /// checkpoint lost every commit since (CrashRecoveryTests).
    private func decrypt(_ page: UnsafeMutableRawBufferPointer) -> Bool {
        if cipher.open(page) {
            UnsafeMutableRawBufferPointer(rebasing: page[(page.count - PageCipher.reservedBytes)...])
                .initializeMemory(as: UInt8.self, repeating: 0)
            return true
        }
        return page.allSatisfy { $0 == 0 }
    }

    // MARK: Writing

    /// Encrypts and writes. SQLite writes the database a whole page at a time, and the WAL as its header, then
    /// each frame's header and page apart; anything else is refused rather than written in the clear.
    func write(_ buffer: UnsafeRawPointer, _ count: Int32, _ offset: Int64) -> Int32 {
        let size = Int64(PageLayout.size)
        let isPage: Bool
        switch kind {
        case .database:
            isPage = offset % size == 0
        case .wal:
            if offset + Int64(count) <= Int64(PageLayout.walHeader) {
                return methods.xWrite(real, buffer, count, offset)
            }
            let inFrame = (offset - Int64(PageLayout.walHeader)) % Int64(PageLayout.frame)
            if inFrame == 0 && count == Int32(PageLayout.frameHeader) {
                return methods.xWrite(real, buffer, count, offset)
            }
            isPage = inFrame == Int64(PageLayout.frameHeader)
        }
        guard isPage, count == Int32(PageLayout.size) else { return SQLITE_IOERR | (3 << 8) }  // _WRITE
        let plain = UnsafeRawBufferPointer(start: buffer, count: PageLayout.size)
        // A page 1 without room for the cipher's tail would have its last bytes overwritten: refuse it.
        guard PageLayout.headerFits(plain, reserved: PageCipher.reservedBytes) else { return SQLITE_IOERR | (3 << 8) }
        scratch.copyMemory(from: plain)
        do { try cipher.seal(scratch) } catch { return SQLITE_IOERR | (3 << 8) }
        return methods.xWrite(real, scratch.baseAddress, count, offset)
    }
}
