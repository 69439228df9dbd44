import GrayImage

/// A QR code drawn as a grey picture: black modules 0, white modules and quiet zone 255.
public struct RenderedQRCode: Sendable, Equatable {
    public var image: GrayFrame
    /// The QR version, 1...40.
    public var version: Int
    /// Modules per side of the symbol, without the quiet zone (17 + 4 × version).
    public var moduleCount: Int
    /// Pixels per module.
    public var moduleSize: Int
    /// Width of the white border, in modules.
    public var quietZone: Int
    public var correction: QRErrorCorrection
}
