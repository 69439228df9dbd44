// Shared checks of the image-loader fuzz targets (PNGDecodeFuzz, JPEGDecodeFuzz, PGMDecodeFuzz). Built by
// `Fuzz/run.sh png|jpeg|pgm` against fuzz builds of GrayImage and ImageFiles, not by SwiftPM.

import GrayImage

@testable import ImageFiles

/// Bumps a libFuzzer extra counter for this outcome (Fuzz/FuzzOutcome.c): the C codecs are not instrumented.
@_silgen_name("fuzz_outcome")
private func fuzzOutcome(_ hash: UInt64)

/// FNV-1a of the codec's words: the text after the last ": " (libpng puts the chunk's name, which is random
/// bytes under fuzzing, before it), letters and spaces only (`tooLarge` names the width and height). So each
/// kind of message counts as new coverage, not each chunk name or number in it.
private func noteOutcome(_ text: String) {
    let words = text.split(separator: ": ", omittingEmptySubsequences: false).last ?? ""
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in words.utf8
    where byte == UInt8(ascii: " ") || (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    fuzzOutcome(hash)
}

/// Decodes the bytes in memory as the kiosk does (`ImageFile.decode(data:name:)`) and checks what comes out:
/// a frame of the size it claims, within the pixel cap; for lossless formats the frame survives a round trip.
func fuzzImageDecode(_ data: UnsafePointer<UInt8>, _ size: Int, roundTrip: (GrayFrame) throws -> [UInt8]?) {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let frame: GrayFrame
    do {
        frame = try ImageFile.decode(data: bytes, name: "fuzz")
    } catch {
        noteOutcome("\(error)")
        return
    }
    noteOutcome("decoded, \(frame.width <= 16 ? "narrow" : "wide"), \(frame.height <= 16 ? "short" : "tall")")
    guard frame.width > 0, frame.height > 0, frame.width * frame.height <= ImageFile.maximumPixelCount,
        frame.pixels.count == frame.width * frame.height
    else {
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
