import Foundation
import GrayImage
import ImageFiles
import KioskCore
import KioskRuntime
import TestSupport
import Testing

@Suite struct ReplayFrameSourceTests {
    let frame = GrayFrame(width: 8, height: 6, pixels: testPattern(width: 8, height: 6))

    @Test func replaysImagesInByteOrderOfNamesWithVirtualTimes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try ImageFile.writePNG(frame, to: directory.file("b.png"))
        try ImageFile.writePGM(frame, to: directory.file("a.PGM"))
        try ImageFile.writeJPEG(frame, to: directory.file("c.JPG"))
        try ImageFile.writePNG(frame, to: directory.file("B.jpeg"))  // upper case sorts first
        try directory.write(Array("notes".utf8), to: "notes.txt")
        try directory.write(Array("junk".utf8), to: ".hidden.png")

        let start = Date(timeIntervalSince1970: 1_000)
        let source = try ReplayFrameSource(directory: directory.path, framesPerSecond: 4, start: start)
        #expect(source.fileNames == ["B.jpeg", "a.PGM", "b.png", "c.JPG"])
        var labels: [String] = []
        var times: [TimeInterval] = []
        while let next = try await source.nextFrame() {
            labels.append(next.label ?? "")
            times.append(next.time.timeIntervalSince(start))
            #expect(next.image.width == 8 && next.image.height == 6)
        }
        #expect(labels == source.fileNames)
        #expect(times == [0, 0.25, 0.5, 0.75])
        #expect(try await source.nextFrame() == nil)
    }

    @Test func missingFolderIsATypedError() {
        let failure = #expect(throws: ReplayError.self) {
            try ReplayFrameSource(directory: "/nonexistent/replay", framesPerSecond: 10)
        }
        #expect(failure == .directoryUnavailable(path: "/nonexistent/replay", errno: ENOENT))
        #expect(failure?.description.hasPrefix("/nonexistent/replay: cannot open replay folder") == true)
    }

    @Test func folderWithoutImagesIsATypedError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(Array("x".utf8), to: "readme.txt")
        let failure = #expect(throws: ReplayError.self) {
            try ReplayFrameSource(directory: directory.path, framesPerSecond: 10)
        }
        #expect(failure == .noImages(path: directory.path))
        let expected = "\(directory.path): replay folder holds no .png, .jpg, .jpeg or .pgm images: "
        #expect(failure?.description.hasPrefix(expected) == true)
    }

    @Test func unreadableImageNamesTheFileAndTheReplayGoesOn() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write([0x89, 0x50, 0x4E, 0x47], to: "1-broken.png")
        try ImageFile.writePNG(frame, to: directory.file("2-good.png"))
        let source = try ReplayFrameSource(directory: directory.path, framesPerSecond: 10)
        let failure = await #expect(throws: ReplayError.self) { try await source.nextFrame() }
        #expect(failure == .unreadableImage(ImageError(file: directory.file("1-broken.png"), reason: .unknownFormat)))
        #expect(failure?.description.contains("1-broken.png") == true)
        #expect(try await source.nextFrame()?.label == "2-good.png")
    }

    @Test func nonPositiveFrameRateIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(throws: ReplayError.invalidFrameRate(0)) {
            try ReplayFrameSource(directory: directory.path, framesPerSecond: 0)
        }
    }
}
