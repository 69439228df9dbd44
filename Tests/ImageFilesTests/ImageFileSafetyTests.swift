import Foundation
import ImageFiles
import KioskCore
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Reading checks the file's type and size before it reads: nothing named like an image can hang the kiosk or
/// exhaust its memory, and each refusal names the file and says what it is.
@Suite struct ImageFileSafetyTests {
    private func failure(reading path: String) -> ImageError? {
        do {
            _ = try ImageFile.read(path: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func aFIFOIsRefusedWithoutHanging() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.makeFIFO("f.png")
        let error = failure(reading: directory.file("f.png"))
        #expect(error?.reason == .notRegularFile(kind: "a FIFO"))
        #expect(error?.description.hasPrefix("\(directory.file("f.png")): is a FIFO, not an image file") == true)
    }

    @Test func aLinkToDevZeroIsRefusedUnread() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.makeLink("z.png", to: "/dev/zero")
        let error = failure(reading: directory.file("z.png"))
        #expect(error?.reason == .notRegularFile(kind: "a character device"))
        #expect(error?.description.contains("z.png: is a character device, not an image file") == true)
    }

    @Test func aFolderNamedLikeAnImageIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.makeFolder("x.png")
        #expect(failure(reading: directory.file("x.png"))?.reason == .notRegularFile(kind: "a directory"))
    }

    @Test func aSymbolicLinkLoopNamesTheCallAndSaysWhatToDo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.makeLink("loop.png", to: "loop.png")
        let error = failure(reading: directory.file("loop.png"))
        #expect(error?.reason == .system(call: "open", errno: ELOOP))
        #expect(error?.description.contains("loop.png: open failed: Too many levels of symbolic links") == true)
        #expect(error?.description.contains("fix or remove the link") == true)
    }

    @Test func aHugeSparseFileIsRefusedBeforeReading() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let size: Int64 = 30 << 30
        try directory.makeSparseFile("a.png", size: size)
        let error = failure(reading: directory.file("a.png"))
        #expect(error?.reason == .fileTooLarge(size: size, limit: ImageFile.maximumFileSize))
        #expect(
            error?.description
                == "\(directory.file("a.png")): is 32.2 GB (32212254720 bytes), more than the 64 MiB limit for an "
                + "image file (a door image is a few MB): remove it, or save the picture smaller")
    }

    @Test func aFileJustOverTheLimitIsRefusedAndOneAtTheLimitIsRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.makeSparseFile("over.pgm", size: Int64(ImageFile.maximumFileSize) + 1)
        #expect(
            failure(reading: directory.file("over.pgm"))?.reason
                == .fileTooLarge(size: Int64(ImageFile.maximumFileSize) + 1, limit: ImageFile.maximumFileSize))
        // At the limit the file is read (all zeros: not a known format), not refused for its size.
        try directory.makeSparseFile("at.pgm", size: Int64(ImageFile.maximumFileSize))
        #expect(failure(reading: directory.file("at.pgm"))?.reason == .unknownFormat)
    }

    @Test(arguments: ["huge.pgm", "huge.png", "huge.jpg"])
    func headersClaimingHugeImagesAreRefusedBeforeAllocating(name: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bytes =
            name.hasSuffix("pgm")
            ? HugeHeader.pgm : name.hasSuffix("png") ? try HugeHeader.png() : try HugeHeader.jpeg()
        try directory.write(bytes, to: name)
        let error = try #require(failure(reading: directory.file(name)))
        guard case .tooLarge(let width, let height) = error.reason else {
            Issue.record("expected tooLarge, got \(error)")
            return
        }
        #expect(width * height > ImageFile.maximumPixelCount)
        #expect(
            error.description.contains("\(name): image of \(width)x\(height) pixels is larger than the 40 MP limit"))
    }
}
