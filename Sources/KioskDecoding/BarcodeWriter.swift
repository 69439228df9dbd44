internal import CZXing
import GrayImage
import KioskCore

/// Draws the other barcodes a door camera sees beside a pass (a product's EAN-13, a Data Matrix label, a PDF417
/// on an ID card, a Code 128 parcel label), with zxing-cpp's writer: for test scenes that must not read as a
/// pass.
public enum BarcodeWriter {
    public enum Format: Int32, CaseIterable, Sendable {
        case ean13 = 0
        case dataMatrix = 1
        case pdf417 = 2
        case code128 = 3
    }

    /// `text` as a `format` barcode at one pixel per module, no quiet zone (dark 0, light 255); nil when
    /// zxing-cpp refuses the text (an EAN-13 takes 12 or 13 digits).
    public static func draw(_ format: Format, _ text: String) -> GrayFrame? {
        var pixels = [UInt8](repeating: 0, count: 1 << 20)
        var width: Int32 = 0
        var height: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = pixels.withUnsafeMutableBufferPointer { out in
            CZXing_writeBarcode(
                format.rawValue, text, out.baseAddress, out.count, &width, &height, &message, message.count)
        }
        guard status == 0, width > 0, height > 0 else { return nil }
        return GrayFrame(
            width: Int(width), height: Int(height), pixels: Array(pixels[0..<(Int(width) * Int(height))]))
    }
}
