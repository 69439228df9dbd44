/// Where the encrypted pages lie in the database file and in its WAL, for the encrypting VFS.
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
}
