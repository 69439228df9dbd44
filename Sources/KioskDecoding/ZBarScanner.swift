internal import CZBar
import GrayImage
import KioskCore

/// zbar's image scanner set up for QR codes only, returning payloads as raw bytes.
///
/// Every symbology is disabled, then QR enabled with `ZBAR_CFG_BINARY`, so zbar hands back the code's
/// bytes without text conversion (invalid UTF-8 survives). Each scan gets a `zbar_image_scanner_t` of its own,
/// destroyed after it: zbar's QR reader seeds a random state (the RANSAC of finder-pattern edges) once, when the
/// scanner is made, and carries it from scan to scan, so a scanner kept across scans read one image or not
/// depending on the images before it (BoofCV's damaged/027 and glare/024 did, by the order of the photos). Made
/// per scan, what an image reads is the image's own, for every user of this type. It carries nothing from scan to
/// scan, only its line step.
public struct ZBarScanner: Sendable {
    /// zbar scans every `lineStep`-th row and column (`ZBAR_CFG_X_DENSITY`, `ZBAR_CFG_Y_DENSITY`): 1, every line,
    /// as zbarimg does; 2 about halves the time of a scan, and misses codes whose modules are too small for it.
    let lineStep: Int32

    public init(lineStep: Int = 1) {
        precondition(lineStep >= 1, "ZBarScanner(lineStep:) takes 1 (every line) or more, not \(lineStep)")
        self.lineStep = Int32(lineStep)
    }

    /// `body` with a scanner made for it and destroyed after it. The corresponding C functions are
    /// `zbar_image_scanner_create`, `zbar_image_scanner_set_config` and `zbar_image_scanner_destroy`.
    private func withScanner(_ body: (OpaquePointer) -> Void) {
        guard let scanner = zbar_image_scanner_create() else { fatalError("zbar_image_scanner_create failed") }
        defer { zbar_image_scanner_destroy(scanner) }
        let configured =
            zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0) == 0
            && zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1) == 0
            && zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_BINARY, 1) == 0
            && zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_X_DENSITY, lineStep) == 0
            && zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_Y_DENSITY, lineStep) == 0
        precondition(configured, "zbar_image_scanner_set_config refused the QR-only configuration")
        body(scanner)
    }

    /// The payloads of the QR codes zbar finds in `frame` as it is (no preprocessing): bare zbar.
    ///
    /// The frame's pixels are lent to a `Y800` `zbar_image_t` without copying. The corresponding C
    /// function is `zbar_scan_image`; symbols are read with `zbar_symbol_get_data`.
    public func scan(_ frame: GrayFrame) -> [[UInt8]] {
        sightings(frame).map(\.payload)
    }

    /// The QR codes zbar finds in `frame`, with where each is (`zbar_symbol_get_loc_x`, `_y`: the symbol's
    /// outline as zbar located it).
    public func sightings(_ frame: GrayFrame) -> [Sighting] {
        var found: [Sighting] = []
        withScanner { scanner in
            withZBarImage(frame) { image in
                guard zbar_scan_image(scanner, image) > 0 else { return }
                var symbol = zbar_image_first_symbol(image)
                while let current = symbol {
                    if zbar_symbol_get_type(current) == ZBAR_QRCODE, let data = zbar_symbol_get_data(current) {
                        let length = Int(zbar_symbol_get_data_length(current))
                        let points = (0..<zbar_symbol_get_loc_size(current)).map {
                            SIMD2(
                                Double(zbar_symbol_get_loc_x(current, $0)), Double(zbar_symbol_get_loc_y(current, $0)))
                        }
                        found.append(
                            Sighting(
                                payload: Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(data), count: length)),
                                corners: points))
                    }
                    symbol = zbar_symbol_next(current)
                }
            }
        }
        return found
    }

    /// Only `zbar_scan_image` on `frame` as it is (with its scanner made and destroyed, as every scan here): the
    /// number of symbols found, nothing read out. For timing bare zbar in benchmarks.
    public func scanRaw(_ frame: GrayFrame) -> Int {
        var found = 0
        withScanner { scanner in withZBarImage(frame) { found = Int(zbar_scan_image(scanner, $0)) } }
        return max(found, 0)
    }

    /// Lends `frame`'s pixels to a fresh `Y800` zbar image for the duration of `body`. The image has no
    /// cleanup handler (zbar never frees Swift's memory), its data pointer is cleared before the buffer
    /// pointer's scope ends, and it is destroyed before returning.
    private func withZBarImage(_ frame: GrayFrame, _ body: (OpaquePointer) -> Void) {
        guard !frame.isEmpty, let image = zbar_image_create() else { return }
        defer { zbar_image_destroy(image) }
        zbar_image_set_format(image, Self.y800)
        zbar_image_set_size(image, UInt32(frame.width), UInt32(frame.height))
        frame.pixels.withUnsafeBufferPointer { pixels in
            zbar_image_set_data(image, pixels.baseAddress, UInt(pixels.count), nil)
            body(image)
            zbar_image_set_data(image, nil, 0, nil)
        }
    }

    /// The fourcc `Y800`: 8-bit grey, one byte per pixel.
    private static let y800: UInt = {
        let bytes = "Y800".utf8.map { UInt($0) }
        return bytes[0] | bytes[1] << 8 | bytes[2] << 16 | bytes[3] << 24
    }()
}
