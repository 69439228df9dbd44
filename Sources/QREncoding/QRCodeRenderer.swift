internal import CQRencode
import GrayImage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Draws QR codes with libqrencode, at the smallest version that fits.
public enum QRCodeRenderer {
    /// Renders `text` (UTF-8), letting libqrencode split it into numeric, alphanumeric and 8-bit segments:
    /// an all-upper-case URL goes into alphanumeric mode and needs a smaller version.
    ///
    /// Text containing NUL cannot pass through a C string and is rendered with `render(bytes:)` instead.
    /// The corresponding C function is `QRcode_encodeString` (hint `QR_MODE_8`, case-sensitive). With
    /// `minimumVersion` (1 to 40), the code is at least that version (0: the smallest that fits).
    public static func render(
        _ text: String,
        moduleSize: Int = 8,
        quietZone: Int = 4,
        correction: QRErrorCorrection = .high,
        minimumVersion: Int = 0
    ) throws(QRCodeError) -> RenderedQRCode {
        if text.utf8.contains(0) {
            return try render(
                bytes: Array(text.utf8), moduleSize: moduleSize, quietZone: quietZone, correction: correction)
        }
        try checkLayout(moduleSize: moduleSize, quietZone: quietZone)
        let code = QRcode_encodeString(text, Int32(max(0, min(40, minimumVersion))), correction.level, QR_MODE_8, 1)
        return try draw(
            code, byteCount: text.utf8.count, moduleSize: moduleSize, quietZone: quietZone, correction: correction)
    }

    /// Renders arbitrary bytes (invalid UTF-8, binary) in 8-bit mode.
    /// The corresponding C function is `QRcode_encodeData`.
    public static func render(
        bytes: [UInt8],
        moduleSize: Int = 8,
        quietZone: Int = 4,
        correction: QRErrorCorrection = .high
    ) throws(QRCodeError) -> RenderedQRCode {
        try checkLayout(moduleSize: moduleSize, quietZone: quietZone)
        let code = bytes.withUnsafeBufferPointer {
            QRcode_encodeData(Int32($0.count), $0.baseAddress, 0, correction.level)
        }
        return try draw(
            code, byteCount: bytes.count, moduleSize: moduleSize, quietZone: quietZone, correction: correction)
    }

    private static func checkLayout(moduleSize: Int, quietZone: Int) throws(QRCodeError) {
        guard moduleSize >= 1, moduleSize <= 1000, quietZone >= 0, quietZone <= 1000 else {
            throw .invalidLayout(moduleSize: moduleSize, quietZone: quietZone)
        }
    }

    /// Paints the symbol (bit 0 of each `QRcode.data` byte is "dark") and frees it with `QRcode_free`.
    private static func draw(
        _ code: UnsafeMutablePointer<QRcode>?,
        byteCount: Int,
        moduleSize: Int,
        quietZone: Int,
        correction: QRErrorCorrection
    ) throws(QRCodeError) -> RenderedQRCode {
        guard let code else {
            let failure = errno
            switch failure {
            case ERANGE: throw .tooLong(byteCount: byteCount, correction: correction)
            case EINVAL: throw .invalidInput
            default: throw .encodingFailed(errno: failure)
            }
        }
        defer { QRcode_free(code) }
        let modules = Int(code.pointee.width)
        let side = (modules + 2 * quietZone) * moduleSize
        var pixels = [UInt8](repeating: 255, count: side * side)
        let origin = quietZone * moduleSize
        pixels.withUnsafeMutableBufferPointer { out in
            for row in 0..<modules {
                for column in 0..<modules where code.pointee.data[row * modules + column] & 1 != 0 {
                    let x0 = origin + column * moduleSize
                    for y in (origin + row * moduleSize)..<(origin + (row + 1) * moduleSize) {
                        let start = y * side + x0
                        for i in start..<(start + moduleSize) { out[i] = 0 }
                    }
                }
            }
        }
        return RenderedQRCode(
            image: GrayFrame(width: side, height: side, pixels: pixels),
            version: Int(code.pointee.version),
            moduleCount: modules,
            moduleSize: moduleSize,
            quietZone: quietZone,
            correction: correction)
    }
}

extension QRErrorCorrection {
    fileprivate var level: QRecLevel {
        switch self {
        case .low: QR_ECLEVEL_L
        case .medium: QR_ECLEVEL_M
        case .quartile: QR_ECLEVEL_Q
        case .high: QR_ECLEVEL_H
        }
    }
}
