import Foundation
import GrayImage
import ImageFiles
import KioskCore
import KioskRuntime
import TestSupport
import Testing

/// A replay folder that mixes bad entries with a real image reports each bad entry by name and still replays the
/// real image.
@Suite struct ReplayBadEntryTests {
    @Test func badEntriesAreReportedAndSkippedAndTheRealImageIsReplayed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.makeFIFO("1-fifo.png")
        try directory.makeLink("2-zero.png", to: "/dev/zero")
        try directory.makeFolder("3-folder.png")
        try directory.makeLink("4-loop.png", to: "4-loop.png")
        try directory.makeSparseFile("5-huge.png", size: 30 << 30)
        // A header claiming 100000x100000 pixels in a few bytes.
        try directory.write(Array("P5 100000 100000 255\n".utf8) + [0, 0, 0, 0], to: "6-header.pgm")
        try ImageFile.writePNG(
            GrayFrame(width: 8, height: 6, pixels: testPattern(width: 8, height: 6)),
            to: directory.file("7-good.png"))

        let source = try ReplayFrameSource(directory: directory.path, framesPerSecond: 10)
        #expect(source.fileNames.count == 7)
        var labels: [String] = []
        var errors: [String] = []
        while true {
            do {
                guard let frame = try await source.nextFrame() else { break }
                labels.append(frame.label ?? "")
            } catch {
                errors.append(error.description)
            }
        }
        #expect(labels == ["7-good.png"])
        #expect(errors.count == 6)
        let expected = [
            "1-fifo.png: is a FIFO, not an image file", "2-zero.png: is a character device, not an image file",
            "3-folder.png: is a directory, not an image file", "4-loop.png: open failed: Too many levels",
            "5-huge.png: is 32.2 GB", "6-header.pgm: image of 100000x100000 pixels",
        ]
        for (error, words) in zip(errors, expected) {
            #expect(error.hasPrefix("replay image skipped: "), "\(error)")
            #expect(error.contains(words), "\(error)")
        }
    }
}
