import GrayImage
import KioskCore
import Testing

@testable import KioskCapture

/// Conversion of each supported layout to grey, with rows padded beyond the pixels (bytesperline > width).
struct GrayConversionTests {
    let width = 5
    let height = 3
    let padding: UInt8 = 0xEE

    /// The expected picture: a different value per pixel.
    func luma(_ x: Int, _ y: Int) -> UInt8 { UInt8(10 + y * 20 + x) }

    func convert(_ bytes: [UInt8], _ layout: LumaLayout, bytesPerLine: Int) -> GrayFrame? {
        bytes.withUnsafeBytes {
            GrayConversion.grayFrame(from: $0, layout: layout, width: width, height: height, bytesPerLine: bytesPerLine)
        }
    }

    var expected: GrayFrame {
        GrayFrame(width: width, height: height, pixels: (0..<height).flatMap { y in (0..<width).map { luma($0, y) } })
    }

    @Test func greyCopiesRowsAndSkipsPadding() {
        let stride = 8
        var bytes = [UInt8](repeating: padding, count: stride * height)
        for y in 0..<height { for x in 0..<width { bytes[y * stride + x] = luma(x, y) } }
        #expect(convert(bytes, .grey, bytesPerLine: stride) == expected)
        // The last row need not be padded.
        #expect(convert(Array(bytes.dropLast(stride - width)), .grey, bytesPerLine: stride) == expected)
    }

    @Test func greyWithoutPadding() {
        #expect(convert(expected.pixels, .grey, bytesPerLine: width) == expected)
    }

    @Test(arguments: [(FourCC.yuyv, 0), (FourCC.uyvy, 1)])
    func packed422TakesLumaBytes(pixelFormat: FourCC, lumaOffset: Int) throws {
        let layout = try #require(LumaLayout(pixelFormat))
        let stride = width * 2 + 6
        var bytes = [UInt8](repeating: padding, count: stride * height)
        for y in 0..<height {
            for x in 0..<width {
                bytes[y * stride + 2 * x + lumaOffset] = luma(x, y)
                bytes[y * stride + 2 * x + 1 - lumaOffset] = 0x80  // chroma
            }
        }
        #expect(convert(bytes, layout, bytesPerLine: stride) == expected)
    }

    @Test(arguments: [FourCC.yuv420, .yvu420, .nv12, .nv21])
    func planarTakesTheLumaPlane(pixelFormat: FourCC) throws {
        let layout = try #require(LumaLayout(pixelFormat))
        let stride = 6
        var bytes = [UInt8](repeating: padding, count: stride * height)
        for y in 0..<height { for x in 0..<width { bytes[y * stride + x] = luma(x, y) } }
        bytes += [UInt8](repeating: 0x80, count: stride * height / 2)  // chroma planes follow
        #expect(convert(bytes, layout, bytesPerLine: stride) == expected)
    }

    @Test func rgbAndBgrGiveFullRangeLuma() throws {
        // white, black, red, green, blue (as R, G, B)
        let colours: [[UInt8]] = [[255, 255, 255], [0, 0, 0], [255, 0, 0], [0, 255, 0], [0, 0, 255]]
        let want: [UInt8] = [255, 0, 77, 149, 29]
        let stride = width * 3 + 1
        for (pixelFormat, order) in [(FourCC.rgb24, [0, 1, 2]), (.bgr24, [2, 1, 0])] {
            let layout = try #require(LumaLayout(pixelFormat))
            var bytes = [UInt8](repeating: padding, count: stride * height)
            for y in 0..<height {
                for x in 0..<width { for c in 0..<3 { bytes[y * stride + 3 * x + c] = colours[x][order[c]] } }
            }
            let frame = try #require(convert(bytes, layout, bytesPerLine: stride))
            for y in 0..<height { #expect(Array(frame.pixels[y * width..<(y + 1) * width]) == want, "\(pixelFormat)") }
        }
    }

    @Test func truncatedBufferGivesNoFrame() {
        let stride = 8
        let needed = GrayConversion.requiredBytes(layout: .grey, width: width, height: height, bytesPerLine: stride)
        #expect(needed == stride * 2 + width)
        #expect(convert([UInt8](repeating: 1, count: needed - 1), .grey, bytesPerLine: stride) == nil)
        #expect(convert([UInt8](repeating: 1, count: needed), .grey, bytesPerLine: stride) != nil)
    }

    @Test func strideShorterThanARowIsRejected() {
        #expect(convert([UInt8](repeating: 1, count: 100), .packed422(offset: 0), bytesPerLine: width) == nil)
    }
}
