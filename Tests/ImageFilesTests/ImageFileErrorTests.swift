import GrayImage
import ImageFiles
import KioskCore
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ImageFileErrorTests {
    let frame = GrayFrame(width: 40, height: 30, pixels: testPattern(width: 40, height: 30))

    private func error(decoding bytes: [UInt8], name: String) -> ImageError? {
        do {
            _ = try ImageFile.decode(data: bytes, name: name)
            return nil
        } catch {
            return error
        }
    }

    @Test func randomBytesAreNoKnownFormat() {
        let bytes: [UInt8] = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let failure = error(decoding: bytes, name: "x.png")
        #expect(failure?.reason == .unknownFormat)
        #expect(
            failure?.description
                == "x.png: not a PNG, JPEG or binary PGM image: convert it to one of these, or remove it")
    }

    @Test func emptyFileSaysSo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write([], to: "empty.png")
        let path = directory.file("empty.png")
        #expect(throws: ImageError(file: path, reason: .emptyFile)) { try ImageFile.read(path: path) }
        let description = ImageError(file: path, reason: .emptyFile).description
        #expect(description == "\(path): file is empty: copy the picture again")
    }

    @Test func missingFileNamesTheCallAndErrno() {
        let failure = #expect(throws: ImageError.self) { try ImageFile.read(path: "/nonexistent/x.png") }
        #expect(failure?.reason == .system(call: "open", errno: ENOENT))
        #expect(failure?.description.hasPrefix("/nonexistent/x.png: open failed: No such file or directory") == true)
    }

    @Test func truncatedPNGIsReportedAsTruncated() throws {
        let png = try ImageFile.encodePNG(frame)
        // Cut inside the pixel data: a file missing only its IEND chunk still decodes.
        for length in [8, 30, png.count / 2, png.count - 20] {
            let failure = error(decoding: Array(png.prefix(length)), name: "cut.png")
            #expect(failure?.reason == .truncated(format: "PNG"), "cut at \(length) of \(png.count)")
            #expect(
                failure?.description == "cut.png: truncated PNG file: copy the picture again (this copy was cut short)")
        }
    }

    @Test func corruptPNGCarriesLibpngMessage() throws {
        var png = try ImageFile.encodePNG(frame)
        png[20] ^= 0xFF  // inside IHDR: its CRC no longer matches
        let failure = error(decoding: png, name: "bad.png")
        guard case .corrupt(format: "PNG", let message) = failure?.reason else {
            Issue.record("expected corrupt PNG, got \(String(describing: failure))")
            return
        }
        #expect(!message.isEmpty)
        #expect(failure?.description.hasPrefix("bad.png: corrupt PNG data: ") == true)
    }

    @Test func truncatedJPEGIsReportedAsTruncated() throws {
        let jpeg = try ImageFile.encodeJPEG(frame, quality: 90)
        for length in [40, jpeg.count * 2 / 3] {
            let failure = error(decoding: Array(jpeg.prefix(length)), name: "cut.jpg")
            #expect(failure?.reason == .truncated(format: "JPEG"), "cut at \(length) of \(jpeg.count)")
            #expect(failure?.description.hasPrefix("cut.jpg: truncated JPEG file: copy the picture again") == true)
        }
    }

    @Test func corruptJPEGCarriesLibjpegMessage() throws {
        var jpeg = try ImageFile.encodeJPEG(frame, quality: 90)
        // Replace the first marker after SOI (APP0/DQT) with an unsupported one: SOF3 lossless.
        let sofIndex = try #require((2..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg[sofIndex + 1] = 0xCF  // SOF15: arithmetic lossless, which libjpeg-turbo refuses
        let failure = error(decoding: jpeg, name: "x.jpg")
        guard case .corrupt(format: "JPEG", let message) = failure?.reason else {
            Issue.record("expected corrupt JPEG, got \(String(describing: failure))")
            return
        }
        #expect(!message.isEmpty)
        #expect(failure?.description == "x.jpg: corrupt JPEG data: \(message). Copy the picture again, or save it anew")
    }

    @Test func zeroSizeAndAbsurdSizesAreRefused() {
        #expect(error(decoding: Array("P5 0 10 255\n".utf8), name: "z.pgm")?.reason == .emptyImage(format: "PGM"))
        let huge = error(decoding: Array("P5 20000 20000 255\n".utf8), name: "huge.pgm")
        #expect(huge?.reason == .tooLarge(width: 20000, height: 20000))
        #expect(
            huge?.description
                == "huge.pgm: image of 20000x20000 pixels is larger than the 40 MP limit: "
                + "scale it down (a QR code needs a few megapixels at most)")
    }

    @Test func truncatedPGMIsReportedAsTruncated() {
        let bytes = Array("P5 4 4 255\n".utf8) + [1, 2, 3]
        #expect(error(decoding: bytes, name: "t.pgm")?.description.hasPrefix("t.pgm: truncated PGM file: ") == true)
        #expect(error(decoding: Array("P5 4".utf8), name: "h.pgm")?.reason == .truncated(format: "PGM"))
    }
}
