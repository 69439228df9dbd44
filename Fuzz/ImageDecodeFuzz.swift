// Shared checks of the image-loader fuzz targets (PNGDecodeFuzz, JPEGDecodeFuzz, PGMDecodeFuzz). Built by
// `Fuzz/run.sh png|jpeg|pgm` against fuzz builds of KioskCore and KioskImageIO, not by SwiftPM.

import KioskCore
@testable import KioskImageIO

/// Decodes the bytes in memory as the kiosk does (`ImageFile.decode(data:name:)`) and checks what comes out:
/// a frame of the size it claims, within the pixel cap; for lossless formats the frame survives a round trip.
func fuzzImageDecode(_ data: UnsafePointer<UInt8>, _ size: Int, roundTrip: (GrayFrame) throws -> [UInt8]?) {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let frame = try? ImageFile.decode(data: bytes, name: "fuzz") else { return }
    guard frame.width > 0, frame.height > 0, frame.width * frame.height <= ImageFile.maximumPixelCount,
          frame.pixels.count == frame.width * frame.height else {
        fatalError("decoded a \(frame.width)x\(frame.height) frame with \(frame.pixels.count) pixels")
    }
    // Small frames only, so the round trip does not slow the fuzzer down.
    guard frame.pixels.count <= 1 << 16 else { return }
    let encoded: [UInt8]?
    do { encoded = try roundTrip(frame) } catch { fatalError("could not encode a decoded frame: \(error)") }
    if let encoded, (try? ImageFile.decode(data: encoded, name: "fuzz-again")) != frame {
        fatalError("a \(frame.width)x\(frame.height) frame changed in a lossless round trip")
    }
}
