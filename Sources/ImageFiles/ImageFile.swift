import GrayImage

/// Reads and writes 8-bit grey images: PNG (libpng), JPEG (TurboJPEG) and binary PGM (in Swift).
///
/// Colour images are converted to grey by the codec; PNG transparency is composed onto white, so a
/// transparent-background QR code reads as dark on light. EXIF orientation is ignored (a QR code reads
/// at any rotation).
public enum ImageFile {
    /// Images with more pixels than this (40 MP) are refused before any pixel buffer is allocated: a header may
    /// claim 100000x100000 pixels in a few bytes.
    public static let maximumPixelCount = 40_000_000

    /// Files larger than this (64 MiB) are refused before they are read: a door image is a few MB.
    public static let maximumFileSize = 64 << 20

    /// Reads the file at `path` and decodes it; the format is found by magic bytes, not the extension.
    /// Anything but a regular file (FIFO, device, directory) and files over `maximumFileSize` are refused unread.
    ///
    /// The corresponding C functions are `open`, `fstat` and `read`, then the codec's.
    public static func read(path: String) throws(ImageError) -> GrayFrame {
        let bytes = try FileIO.readAll(path: path)
        return try decode(data: bytes, name: path)
    }

    /// Decodes PNG, JPEG or binary PGM bytes. `name` only labels errors.
    public static func decode(data: [UInt8], name: String) throws(ImageError) -> GrayFrame {
        guard let format = ImageFormat.detect(data) else {
            if data.isEmpty { throw ImageError(file: name, reason: .emptyFile) }
            throw ImageError(file: name, reason: .unknownFormat)
        }
        switch format {
        case .png: return try PNGCodec.decode(data, name: name)
        case .jpeg: return try JPEGCodec.decode(data, name: name)
        case .pgm: return try PGMCodec.decode(data, name: name)
        }
    }

    /// Checks a header's size before anything is allocated.
    static func checkSize(width: Int, height: Int, format: ImageFormat, name: String) throws(ImageError) {
        guard width > 0, height > 0 else { throw ImageError(file: name, reason: .emptyImage(format: format.rawValue)) }
        guard width <= maximumPixelCount, height <= maximumPixelCount, width * height <= maximumPixelCount else {
            throw ImageError(file: name, reason: .tooLarge(width: width, height: height))
        }
    }
}
