/// Why libqrencode could not make a code.
public enum QRCodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data does not fit a version 40 code at this error correction level (libqrencode's `ERANGE`).
    case tooLong(byteCount: Int, correction: QRErrorCorrection)
    /// libqrencode refused the input (`EINVAL`), e.g. empty data.
    case invalidInput
    /// Module size below 1 or a negative quiet zone.
    case invalidLayout(moduleSize: Int, quietZone: Int)
    /// Any other errno from libqrencode (`ENOMEM`...).
    case encodingFailed(errno: Int32)

    public var description: String {
        switch self {
        case .tooLong(let count, let correction):
            return "\(count) bytes do not fit in a QR code at error correction level \(correction) (ERANGE)"
        case .invalidInput:
            return "libqrencode refused the input (EINVAL)"
        case .invalidLayout(let moduleSize, let quietZone):
            return "module size \(moduleSize) must be at least 1 and quiet zone \(quietZone) at least 0"
        case .encodingFailed(let errno):
            return "libqrencode failed with errno \(errno)"
        }
    }
}

/// The QR error correction levels: about 7, 15, 25 and 30 % of codewords recoverable.
public enum QRErrorCorrection: String, Equatable, Sendable, CaseIterable {
    case low = "L"
    case medium = "M"
    case quartile = "Q"
    case high = "H"
}
