/// Where the encrypted pages lie in the database file and in its WAL, for the encrypting VFS, and where each
/// page belongs as its seal binds it.
///
/// Every page is `size` bytes, the last `PageCipher.reservedBytes` of which SQLite leaves to the cipher (the
/// database is made with that many reserved bytes). The database file is pages end to end. The WAL is a
/// 32-byte header, then frames of a 24-byte header and a page; the headers (page number, salts, checksums)
/// stay plain, so SQLite's recovery reads them as before.
enum PageLayout {
    /// The page size of every encrypted database (SQLite's default on Debian).
    static let size = 4096
    static let walHeader = 32
    static let frameHeader = 24
    static let frame = frameHeader + size
    /// "SQLite format 3" and a NUL: the first 16 bytes of a plain database (and of a decrypted page 1).
    static let magic: [UInt8] = Array("SQLite format 3".utf8) + [0]

    /// The byte ranges of whole pages in a WAL file that meet `range` (file offsets).
    static func walPages(meeting range: Range<Int64>) -> [Range<Int64>] {
        guard range.upperBound > Int64(walHeader + frameHeader) else { return [] }
        let first = max(0, (range.lowerBound - Int64(walHeader)) / Int64(frame))
        var pages: [Range<Int64>] = []
        var index = first
        while true {
            let start = Int64(walHeader) + index * Int64(frame) + Int64(frameHeader)
            guard start < range.upperBound else { break }
            let page = start..<(start + Int64(size))
            if page.overlaps(range) { pages.append(page) }
            index += 1
        }
        return pages
    }

    /// Whether a plain page is page 1 with the page size and reserved bytes the cipher needs (bytes 16-17
    /// hold the page size, byte 20 the reserved bytes per page). Pages that are not page 1 pass.
    static func headerFits(_ page: UnsafeRawBufferPointer, reserved: Int) -> Bool {
        guard page.count >= 100, zip(page.prefix(16), magic).allSatisfy({ $0 == $1 }) else { return true }
        return Int(page[16]) << 8 | Int(page[17]) == size && Int(page[20]) == reserved
    }

    // MARK: Binding

    /// The bytes that say where a page belongs, authenticated with it (format 2; `PageCipher`'s binding): the
    /// file (1 the database file, 2 the WAL), the page number (big-endian), and in the WAL the frame's number in
    /// the file (from 0, big-endian) and the database size its header records for a commit (0 in other frames).
    /// A page so sealed opens at that page of that file only; in the WAL, in that frame only, and with the commit
    /// mark it was written with, so moving a frame's page to another frame (an older version of a page over a
    /// newer one) or marking a frame in the middle of a transaction as its commit is refused.
    ///
    /// The header's salts and checksums are not bound: SQLite writes them as zeros in the frames that follow a
    /// page it has rewritten in place in the same transaction, and fills them in only at the commit
    /// (`walRewriteChecksums`), after those pages are sealed.
    static let bindingBytes = 13

    /// The page number of the database-file page at `offset` (a multiple of `size`): offset / size + 1.
    static func databasePageNumber(at offset: Int64) -> UInt32? {
        guard offset >= 0 else { return nil }
        return UInt32(exactly: offset / Int64(size) + 1)
    }

    /// The number of the WAL frame whose header starts at `offset`, from 0.
    static func walFrameNumber(atHeader offset: Int64) -> UInt32? {
        guard offset >= Int64(walHeader), (offset - Int64(walHeader)) % Int64(frame) == 0 else { return nil }
        return UInt32(exactly: (offset - Int64(walHeader)) / Int64(frame))
    }

    /// Writes the binding of page `number` of the database file into `binding` (`bindingBytes` long).
    static func bindDatabasePage(_ number: UInt32, into binding: UnsafeMutableRawBufferPointer) {
        binding.initializeMemory(as: UInt8.self, repeating: 0)
        binding[0] = 1
        binding.storeBytes(of: number.bigEndian, toByteOffset: 1, as: UInt32.self)
    }

    /// Writes the binding of the page of WAL frame `frame`, whose header's first 8 bytes are `header` (its page
    /// number and commit size), into `binding`.
    static func bindWALPage(
        frame: UInt32, header: UnsafeRawBufferPointer, into binding: UnsafeMutableRawBufferPointer
    ) {
        binding[0] = 2
        binding[1..<5].copyBytes(from: header[0..<4])
        binding.storeBytes(of: frame.bigEndian, toByteOffset: 5, as: UInt32.self)
        binding[9..<13].copyBytes(from: header[4..<8])
    }

    /// The binding of page `number` of the database file, as bytes.
    static func databaseBinding(page number: UInt32) -> [UInt8] {
        var binding = [UInt8](repeating: 0, count: bindingBytes)
        binding.withUnsafeMutableBytes { bindDatabasePage(number, into: $0) }
        return binding
    }

    /// The binding of the page of WAL frame `frame` whose header starts with `header` (8 bytes or more), as bytes.
    static func walBinding(frame: UInt32, header: [UInt8]) -> [UInt8] {
        var binding = [UInt8](repeating: 0, count: bindingBytes)
        binding.withUnsafeMutableBytes { out in
            header.withUnsafeBytes { bindWALPage(frame: frame, header: $0, into: out) }
        }
        return binding
    }
}
