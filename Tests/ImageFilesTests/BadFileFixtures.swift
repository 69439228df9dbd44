import Foundation
import GrayImage
import ImageFiles
import KioskCore
import TestSupport

/// Headers that claim huge images in a few bytes.
enum HugeHeader {
    static let pgm = Array("P5 100000 100000 255\n".utf8) + [0, 0, 0, 0]

    /// A valid small PNG whose IHDR now says 100000x100000 (CRC fixed, so libpng accepts the header).
    static func png() throws -> [UInt8] {
        var png = try ImageFile.encodePNG(GrayFrame(width: 8, height: 8, pixels: [UInt8](repeating: 128, count: 64)))
        // Signature (8), IHDR length (4), "IHDR" (4), width (4), height (4)...; CRC over type and data (17 bytes).
        for (offset, value) in [(16, UInt32(100_000)), (20, UInt32(100_000))] {
            for i in 0..<4 { png[offset + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(i))) }
        }
        let crc = crc32(Array(png[12..<29]))
        for i in 0..<4 { png[29 + i] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(i))) }
        return png
    }

    /// A valid small JPEG whose SOF0 now says 65000x65000.
    static func jpeg() throws -> [UInt8] {
        var jpeg = try ImageFile.encodeJPEG(GrayFrame(width: 8, height: 8, pixels: [UInt8](repeating: 128, count: 64)))
        guard let sof = (2..<(jpeg.count - 9)).first(where: { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 }) else {
            throw POSIXError(.EINVAL)
        }
        // FF C0, length (2), precision (1), height (2), width (2).
        for offset in [sof + 5, sof + 7] {
            jpeg[offset] = 0xFD
            jpeg[offset + 1] = 0xE8  // 65000
        }
        return jpeg
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
