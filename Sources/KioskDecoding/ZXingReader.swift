internal import CZXing
import GrayImage
import KioskCore

/// zxing-cpp's QR reader (Debian's libzxing-dev, through the `CZXing` C++ shim), returning payloads as raw bytes.
///
/// QR codes only (Micro QR and the linear formats are off), trying harder, without rotations (the QR detector
/// finds codes at any angle). Only codes whose error correction succeeded are returned. Stateless: each call
/// builds its own hints, so one reader may be used from any task.
public struct ZXingReader: Sendable {
    /// How zxing-cpp turns grey into black and white.
    public enum Binarizer: Int32, Sendable {
        /// A threshold per block from its neighbourhood's mean (zxing's HybridBinarizer): uneven light.
        case localAverage = 0
        /// One threshold per image from its histogram: blur, where local thresholds break module edges.
        case globalHistogram = 1
    }

    public var binarizer: Binarizer
    /// Also try zxing-cpp's own downscaled copies of big images (codes that fill a photo).
    public var tryDownscale: Bool
    /// Also give each sighting its text (`Sighting.text`), for people; the door works on the bytes alone.
    public var withText: Bool

    public init(binarizer: Binarizer = .localAverage, tryDownscale: Bool = true, withText: Bool = false) {
        self.binarizer = binarizer
        self.tryDownscale = tryDownscale
        self.withText = withText
    }

    /// The payloads of the QR codes zxing-cpp reads in `frame` as it is. The corresponding C++ function is
    /// `ZXing::ReadBarcodes`; an exception it throws (none is documented for valid images) reads as nothing.
    public func scan(_ frame: GrayFrame) -> [[UInt8]] {
        sightings(frame).map(\.payload)
    }

    /// The codes zxing-cpp reads in `frame`, with where each is.
    public func sightings(_ frame: GrayFrame) -> [Sighting] {
        guard !frame.isEmpty else { return [] }
        final class Found { var sightings: [Sighting] = [] }
        let found = Found()
        var message = [CChar](repeating: 0, count: 256)
        let status = frame.pixels.withUnsafeBufferPointer { pixels in
            withExtendedLifetime(found) {
                CZXing_readQRCodes(
                    pixels.baseAddress, Int32(frame.width), Int32(frame.height), binarizer.rawValue,
                    tryDownscale ? 1 : 0, withText ? 1 : 0, Unmanaged.passUnretained(found).toOpaque(),
                    { context, bytes, length, text, textLength, corners in
                        guard let context, let corners else { return }
                        let found = Unmanaged<Found>.fromOpaque(context).takeUnretainedValue()
                        let points = (0..<4).map { SIMD2(Double(corners[2 * $0]), Double(corners[2 * $0 + 1])) }
                        let utf8 = text.map { UnsafeRawBufferPointer(start: $0, count: textLength) }
                        found.sightings.append(
                            Sighting(
                                payload: length == 0 ? [] : Array(UnsafeBufferPointer(start: bytes, count: length)),
                                corners: points, text: utf8.map { String(decoding: $0, as: UTF8.self) }))
                    }, &message, message.count)
            }
        }
        return status < 0 ? [] : found.sightings
    }
}
