internal import GRDBSQLite

extension EncryptedFile {
    /// Reads the WAL. Its header and the frames' headers are plain. A page read alone belongs to a committed frame
    /// (a read or a checkpoint): it is read with its frame's header, whose page number and commit size its seal
    /// binds, and one that does not open is an error, never zeros. Frames read with their headers are
    /// recovery (or SQLite rewriting a transaction's checksums): a frame that does not open (torn by a power cut,
    /// or left from before the WAL restarted) reads as zeros, which its checksum refuses, as SQLite expects.
    func readWAL(_ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: Int64) -> Int32 {
        let range = offset..<(offset + Int64(count))
        let pages = PageLayout.walPages(meeting: range)
        if pages.isEmpty { return methods.xRead(real, buffer, Int32(count), offset) }
        if pages == [range] { return readCommittedPage(into: buffer, at: offset) }
        let code = methods.xRead(real, buffer, Int32(count), offset)
        guard code == SQLITE_OK || code == VFSResult.shortRead else { return code }
        for page in pages {
            let header = page.lowerBound - Int64(PageLayout.frameHeader)
            guard header >= offset, page.upperBound <= range.upperBound,
                let frame = PageLayout.walFrameNumber(atHeader: header)
            else { return VFSResult.readError }  // part of a page, or a page without its header: never asked for
            let headerBytes = UnsafeRawBufferPointer(start: buffer + Int(header - offset), count: 8)
            let bytes = UnsafeMutableRawBufferPointer(
                start: buffer + Int(page.lowerBound - offset), count: PageLayout.size)
            PageLayout.bindWALPage(frame: frame, header: headerBytes, into: binding)
            if !open(bytes) { bytes.initializeMemory(as: UInt8.self, repeating: 0) }
        }
        return code
    }

    /// Reads the page at `offset` (a frame's page) with its frame header in one read, and opens it for that frame.
    private func readCommittedPage(into buffer: UnsafeMutableRawPointer, at offset: Int64) -> Int32 {
        let header = offset - Int64(PageLayout.frameHeader)
        guard let frame = PageLayout.walFrameNumber(atHeader: header) else { return VFSResult.readError }
        let code = methods.xRead(real, scratch.baseAddress, Int32(PageLayout.frame), header)
        guard code == SQLITE_OK else {
            buffer.initializeMemory(as: UInt8.self, repeating: 0, count: PageLayout.size)
            return code
        }
        PageLayout.bindWALPage(frame: frame, header: UnsafeRawBufferPointer(rebasing: scratch[0..<8]), into: binding)
        let page = UnsafeMutableRawBufferPointer(rebasing: scratch[PageLayout.frameHeader...])
        guard open(page) else { return VFSResult.dataError }
        buffer.copyMemory(from: page.baseAddress!, byteCount: PageLayout.size)
        return SQLITE_OK
    }

    /// Writes the WAL: its header and the frames' headers as they are; a frame's page sealed for that frame. SQLite
    /// writes a frame's header and then its page, and may later write again only the page of a frame of the same
    /// transaction (a page changed twice: `sqlite3WalFrames` overwrites it in place), whose header is then read
    /// back from the file. A WAL of a format-1 database takes no page: such a database is only rewritten.
    func writeWAL(_ buffer: UnsafeRawPointer, _ count: Int, _ offset: Int64) -> Int32 {
        if offset + Int64(count) <= Int64(PageLayout.walHeader) {
            frameHeaderOffset = nil
            return methods.xWrite(real, buffer, Int32(count), offset)
        }
        let inFrame = (offset - Int64(PageLayout.walHeader)) % Int64(PageLayout.frame)
        if offset >= Int64(PageLayout.walHeader) && inFrame == 0 && count == PageLayout.frameHeader {
            frameHeader.copyMemory(from: UnsafeRawBufferPointer(start: buffer, count: count))
            frameHeaderOffset = offset
            return methods.xWrite(real, buffer, Int32(count), offset)
        }
        let header = offset - Int64(PageLayout.frameHeader)
        guard inFrame == Int64(PageLayout.frameHeader), count == PageLayout.size,
            let frame = PageLayout.walFrameNumber(atHeader: header)
        else { return VFSResult.writeError }
        identity.prepareForSealing()
        guard identity.format == .bound else { return VFSResult.writeError }
        if frameHeaderOffset != header {
            let code = methods.xRead(real, frameHeader.baseAddress, Int32(PageLayout.frameHeader), header)
            guard code == SQLITE_OK else { return VFSResult.writeError }
        }
        frameHeaderOffset = nil
        PageLayout.bindWALPage(
            frame: frame, header: UnsafeRawBufferPointer(rebasing: frameHeader[0..<8]), into: binding)
        let page = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<PageLayout.size])
        page.copyMemory(from: UnsafeRawBufferPointer(start: buffer, count: PageLayout.size))
        guard seal(page) else { return VFSResult.writeError }
        return methods.xWrite(real, page.baseAddress, Int32(PageLayout.size), offset)
    }
}
