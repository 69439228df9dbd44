internal import GRDBSQLite

extension EncryptedFile {
    /// Reads a page of the database file (or part of one: the header), opened for its page number. Past the end
    /// (a new file, a page not written yet, a torn last page) SQLite reads zeros, as from any file.
    func readDatabase(_ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: Int64) -> Int32 {
        let size = Int64(PageLayout.size)
        let pageStart = offset / size * size
        guard offset + Int64(count) <= pageStart + size, let number = PageLayout.databasePageNumber(at: pageStart)
        else { return VFSResult.readError }
        let whole = offset == pageStart && count == PageLayout.size
        let page = whole ? UnsafeMutableRawBufferPointer(start: buffer, count: PageLayout.size) : pageScratch
        let code = methods.xRead(real, page.baseAddress, Int32(PageLayout.size), pageStart)
        if code == VFSResult.shortRead {
            buffer.initializeMemory(as: UInt8.self, repeating: 0, count: count)
            return code
        }
        guard code == SQLITE_OK else { return code }
        PageLayout.bindDatabasePage(number, into: binding)
        guard open(page) else { return VFSResult.dataError }
        if !whole { buffer.copyMemory(from: page.baseAddress! + Int(offset - pageStart), byteCount: count) }
        return SQLITE_OK
    }

    /// Seals a whole page for its page number and writes it, after sealed pages of zeros for any pages between
    /// the file's end and it (`fillGap`).
    func writeDatabase(_ buffer: UnsafeRawPointer, _ count: Int, _ offset: Int64) -> Int32 {
        guard offset % Int64(PageLayout.size) == 0, count == PageLayout.size,
            let number = PageLayout.databasePageNumber(at: offset)
        else { return VFSResult.writeError }
        let gap = fillGap(upTo: offset)
        guard gap == SQLITE_OK else { return gap }
        let page = pageScratch
        page.copyMemory(from: UnsafeRawBufferPointer(start: buffer, count: PageLayout.size))
        PageLayout.bindDatabasePage(number, into: binding)
        guard seal(page) else { return VFSResult.writeError }
        return methods.xWrite(real, page.baseAddress, Int32(PageLayout.size), offset)
    }

    /// Truncates the database file; a file made longer gets sealed pages of zeros rather than a hole.
    func truncateDatabase(_ size: Int64) -> Int32 {
        let gap = fillGap(upTo: size / Int64(PageLayout.size) * Int64(PageLayout.size))
        guard gap == SQLITE_OK else { return gap }
        return methods.xTruncate(real, size)
    }

    /// Writes a sealed page of zeros for every page from the end of the file (or its torn last page) up to `end`,
    /// so that no page within the file is a hole that would read as zeros, which a sealed page never does.
    ///
    /// SQLite leaves such holes: in rollback mode (`VACUUM INTO`'s copy, a new file's first page) it does not
    /// write a page that has become a free-list leaf (`sqlite3PagerDontWrite`), yet writes the pages after it, and
    /// a WAL checkpoint sets the file's length with `xTruncate`, which may lengthen it. SQLite itself reads such a
    /// page: `VACUUM` copies its result over every page of the file and reads each first (`backupOnePage`), and the
    /// kiosk runs `VACUUM` after a purge.
    private func fillGap(upTo end: Int64) -> Int32 {
        identity.resolve()
        guard identity.format == .bound else { return SQLITE_OK }  // format 1 read zeros as a hole
        var fileSize: Int64 = 0
        let code = methods.xFileSize(real, &fileSize)
        guard code == SQLITE_OK else { return code }
        var start = fileSize / Int64(PageLayout.size) * Int64(PageLayout.size)
        while start < end {
            guard let number = PageLayout.databasePageNumber(at: start) else { return VFSResult.writeError }
            let page = pageScratch
            page.initializeMemory(as: UInt8.self, repeating: 0)
            PageLayout.bindDatabasePage(number, into: binding)
            guard seal(page) else { return VFSResult.writeError }
            let written = methods.xWrite(real, page.baseAddress, Int32(PageLayout.size), start)
            guard written == SQLITE_OK else { return written }
            start += Int64(PageLayout.size)
        }
        return SQLITE_OK
    }

    /// The first page of scratch memory.
    private var pageScratch: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(rebasing: scratch[0..<PageLayout.size])
    }
}
