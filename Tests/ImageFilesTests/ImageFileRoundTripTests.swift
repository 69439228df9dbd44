import GrayImage
import ImageFiles
import KioskCore
import TestSupport
import Testing

@Suite struct ImageFileRoundTripTests {
    let frame = GrayFrame(width: 37, height: 23, pixels: testPattern(width: 37, height: 23))

    @Test func pngRoundTripIsExact() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try ImageFile.writePNG(frame, to: directory.file("a.png"))
        #expect(try ImageFile.read(path: directory.file("a.png")) == frame)
        #expect(try ImageFile.decode(data: ImageFile.encodePNG(frame), name: "memory") == frame)
    }

    @Test func pgmRoundTripIsExact() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try ImageFile.writePGM(frame, to: directory.file("a.pgm"))
        #expect(try ImageFile.read(path: directory.file("a.pgm")) == frame)
    }

    @Test func jpegRoundTripIsClose() throws {
        let ramp: [UInt8] = (0..<(64 * 48)).map { (i: Int) -> UInt8 in UInt8(i % 64 * 2 + i / 64) }
        let smooth = GrayFrame(width: 64, height: 48, pixels: ramp)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try ImageFile.writeJPEG(smooth, to: directory.file("a.jpg"), quality: 95)
        let read = try ImageFile.read(path: directory.file("a.jpg"))
        #expect(read.width == 64 && read.height == 48)
        let worst = zip(read.pixels, smooth.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 4)
    }

    @Test func formatComesFromMagicBytesNotTheExtension() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(try ImageFile.encodePNG(frame), to: "really-a-png.jpg")
        #expect(try ImageFile.read(path: directory.file("really-a-png.jpg")) == frame)
        #expect(ImageFormat.detect(try ImageFile.encodeJPEG(frame)) == .jpeg)
        #expect(ImageFormat.detect(ImageFile.encodePGM(frame)) == .pgm)
    }

    @Test func pgmHeaderCommentsAreSkipped() throws {
        let bytes = Array("P5\n# made by hand\n3 # width\n2\n# maxval next\n255\n".utf8) + [0, 50, 100, 150, 200, 255]
        let image = try ImageFile.decode(data: bytes, name: "c.pgm")
        #expect(image == GrayFrame(width: 3, height: 2, pixels: [0, 50, 100, 150, 200, 255]))
    }

    @Test func sixteenBitPGMIsScaledToEightBits() throws {
        let samples: [UInt16] = [0, 1000, 32768, 65535]
        let bytes = Array("P5 2 2 65535\n".utf8) + samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let image = try ImageFile.decode(data: bytes, name: "deep.pgm")
        #expect(image.pixels == [0, 4, 128, 255])
    }

    @Test func smallMaxvalPGMIsStretched() throws {
        let bytes = Array("P5 4 1 15\n".utf8) + [0, 5, 10, 15]
        #expect(try ImageFile.decode(data: bytes, name: "n.pgm").pixels == [0, 85, 170, 255])
    }
}
