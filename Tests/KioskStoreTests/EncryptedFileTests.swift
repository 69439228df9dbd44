import Cryptography
import Foundation
import GRDBSQLite
import Testing

@testable import KioskStore

/// The encrypting VFS's database file, driven as SQLite drives it: a page of zeros never opens, so no page within
/// the file may be a hole.
@Suite("Encrypted database file")
struct EncryptedFileTests {
    @Test("pages skipped past the end, or added by lengthening the file, are sealed zeros, not holes")
    func noHoles() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("holes.db")
        EncryptingVFS.register()
        let keyID = EncryptingVFS.remember(pageKey: DatabaseKey.random().pageKey)
        defer { EncryptingVFS.forget(keyID) }
        let vfs = try #require(sqlite3_vfs_find(EncryptingVFS.name))
        // A file name as SQLite hands it to a VFS, with its URI parameters.
        let texts = ["kioskkey", String(keyID)]
        let parameters = texts.map { text -> UnsafePointer<CChar>? in UnsafePointer(strdup(text)) }
        defer { for parameter in parameters { free(UnsafeMutablePointer(mutating: parameter)) } }
        var array = parameters
        let name = try #require(
            array.withUnsafeMutableBufferPointer {
                sqlite3_create_filename(path, path + "-journal", path + "-wal", 1, $0.baseAddress)
            })
        defer { sqlite3_free_filename(name) }
        let slot = UnsafeMutableRawPointer.allocate(byteCount: Int(vfs.pointee.szOsFile), alignment: 16)
        slot.initializeMemory(as: UInt8.self, repeating: 0, count: Int(vfs.pointee.szOsFile))
        defer { slot.deallocate() }
        let file = slot.bindMemory(to: sqlite3_file.self, capacity: 1)
        var flags: Int32 = 0
        let opened = vfs.pointee.xOpen(
            vfs, name, file, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MAIN_DB, &flags)
        try #require(opened == SQLITE_OK)
        let methods = file.pointee.pMethods.pointee
        defer { _ = methods.xClose(file) }
        let size = PageLayout.size
        func read(_ number: Int) -> (Int32, [UInt8]) {
            var page = [UInt8](repeating: 0xFF, count: size)
            let code = page.withUnsafeMutableBytes {
                methods.xRead(file, $0.baseAddress, Int32(size), Int64((number - 1) * size))
            }
            return (code, page)
        }

        // Page 3 of an empty file, then the file made 5 pages long.
        let third =
            [UInt8](repeating: 0x41, count: size - PageCipher.reservedBytes)
            + [UInt8](repeating: 0, count: PageCipher.reservedBytes)
        #expect(
            third.withUnsafeBytes { methods.xWrite(file, $0.baseAddress, Int32(size), Int64(2 * size)) } == SQLITE_OK)
        #expect(methods.xTruncate(file, Int64(5 * size)) == SQLITE_OK)
        for number in [1, 2, 4, 5] {
            let (code, page) = read(number)
            #expect(code == SQLITE_OK && page == [UInt8](repeating: 0, count: size), "page \(number)")
        }
        #expect(read(3) == (SQLITE_OK, third))
        #expect(read(6).0 == SQLITE_IOERR | (2 << 8))  // past the end: a short read, zeros

        // On disk, every page is sealed for its place.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count == 5 * size)
        for start in stride(from: 0, to: bytes.count, by: size) {
            #expect(bytes[start..<(start + size)].withUnsafeBytes { PageCipher.format(of: $0) } == .bound)
        }
    }
}
