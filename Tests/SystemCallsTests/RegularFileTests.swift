import Foundation
import SystemCalls
import SystemPackage
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct RegularFileTests {
    private let folder: String = {
        let path = NSTemporaryDirectory() + "kiosk-system-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    @Test func readsAWholeFileUpToTheLimit() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try RegularFile.write(Array("0123456789".utf8), path: folder + "/ten")
        #expect(try RegularFile.read(path: folder + "/ten", limit: 10) == Array("0123456789".utf8))
        #expect(throws: RegularFileError.tooLarge(size: 10, limit: 9)) {
            try RegularFile.read(path: folder + "/ten", limit: 9)
        }
    }

    @Test func refusesWhatIsNotARegularFile() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo(folder + "/fifo", 0o644) == 0)
        #expect(throws: RegularFileError.notRegularFile(.fifo)) {
            try RegularFile.read(path: folder + "/fifo", limit: 10)
        }
        #expect(throws: RegularFileError.notRegularFile(.characterSpecial)) {
            try RegularFile.read(path: "/dev/zero", limit: 10)
        }
        #expect(throws: RegularFileError.notRegularFile(.directory)) { try RegularFile.read(path: folder, limit: 10) }
        #expect(RegularFileError.notRegularFile(.fifo).description == "is a FIFO, not a regular file")
    }

    @Test func aFileThatGrowsPastTheLimitWhileReadIsRefused() {
        // /proc files say size 0 to fstat and then give more: the reader stops at the limit, not at the end.
        let error = #expect(throws: RegularFileError.self) { try RegularFile.read(path: "/proc/self/maps", limit: 16) }
        guard case .tooLarge(let size, 16) = error else {
            Issue.record("expected tooLarge, got \(String(describing: error))")
            return
        }
        #expect(size > 16)
    }

    @Test func aMissingFileNamesOpen() {
        #expect(throws: RegularFileError.system(SystemCallError(call: "open", errno: .noSuchFileOrDirectory))) {
            try RegularFile.read(path: "/nonexistent/file", limit: 10)
        }
    }

    @Test func sizesReadAsAnOperatorExpects() {
        #expect(ByteCount.text(1) == "1 byte")
        #expect(ByteCount.text(512) == "512 bytes")
        #expect(ByteCount.text(64 << 20) == "64 MiB")
        #expect(ByteCount.text(3_200_000) == "3.2 MB (3200000 bytes)")
        #expect(ByteCount.text(30 << 30) == "32.2 GB (32212254720 bytes)")
    }
}
