import GrayImage

extension ImageFile {
    /// Encodes `frame` as an 8-bit grey PNG. The corresponding C function is `png_image_write_to_memory`.
    public static func encodePNG(_ frame: GrayFrame) throws(ImageError) -> [UInt8] {
        try PNGCodec.encode(frame, name: "<png>")
    }

    /// Encodes `frame` as a grey JPEG (`TJSAMP_GRAY`) at `quality` 1...100.
    /// The corresponding C function is `tjCompress2`.
    public static func encodeJPEG(_ frame: GrayFrame, quality: Int = 90) throws(ImageError) -> [UInt8] {
        try JPEGCodec.encode(frame, quality: quality, name: "<jpeg>")
    }

    /// Encodes `frame` as binary PGM (`P5`, maxval 255).
    public static func encodePGM(_ frame: GrayFrame) -> [UInt8] {
        PGMCodec.encode(frame)
    }

    /// Writes `frame` to `path` as PNG. The corresponding C functions are `png_image_write_to_memory`,
    /// `open` and `write`.
    public static func writePNG(_ frame: GrayFrame, to path: String) throws(ImageError) {
        try FileIO.writeAll(try PNGCodec.encode(frame, name: path), path: path)
    }

    /// Writes `frame` to `path` as grey JPEG. The corresponding C functions are `tjCompress2`, `open` and
    /// `write`.
    public static func writeJPEG(_ frame: GrayFrame, to path: String, quality: Int = 90) throws(ImageError) {
        try FileIO.writeAll(try JPEGCodec.encode(frame, quality: quality, name: path), path: path)
    }

    /// Writes `frame` to `path` as binary PGM. The corresponding C functions are `open` and `write`.
    public static func writePGM(_ frame: GrayFrame, to path: String) throws(ImageError) {
        try FileIO.writeAll(PGMCodec.encode(frame), path: path)
    }
}
