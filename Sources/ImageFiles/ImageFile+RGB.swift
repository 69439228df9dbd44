internal import CPNG

/// 8-bit RGB PNG through libpng's simplified API with `PNG_FORMAT_RGB`: for pictures of the screens
/// (the grey codecs elsewhere in this module are for camera frames).
extension ImageFile {
    /// Encodes `pixels` (`width * height * 3` bytes, R G B, rows unpadded) as an 8-bit RGB PNG.
    /// The corresponding C function is `png_image_write_to_memory`.
    public static func encodeRGBPNG(width: Int, height: Int, pixels: [UInt8]) throws(ImageError) -> [UInt8] {
        let name = "<rgb png>"
        guard width > 0, height > 0 else { throw ImageError(file: name, reason: .emptyImage(format: "PNG")) }
        precondition(pixels.count == width * height * 3, "RGB pixel count must be width*height*3")
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = png_uint_32(PNG_FORMAT_RGB)
        defer { png_image_free(&image) }

        var size: png_alloc_size_t = 0
        let rowStride = png_int_32(width * 3)
        let sized = pixels.withUnsafeBytes {
            png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, rowStride, nil)
        }
        guard sized != 0, size > 0 else {
            throw ImageError(file: name, reason: .encodingFailed(format: "PNG", message: rgbMessage(of: image)))
        }
        var output = [UInt8](repeating: 0, count: Int(size))
        let written = output.withUnsafeMutableBytes { out in
            pixels.withUnsafeBytes {
                png_image_write_to_memory(&image, out.baseAddress, &size, 0, $0.baseAddress, rowStride, nil)
            }
        }
        guard written != 0 else {
            throw ImageError(file: name, reason: .encodingFailed(format: "PNG", message: rgbMessage(of: image)))
        }
        output.removeLast(output.count - Int(size))
        return output
    }

    /// Decodes a PNG of any colour type to 8-bit RGB (alpha composed onto white), rows unpadded.
    /// The corresponding C functions are `png_image_begin_read_from_memory` and `png_image_finish_read`.
    public static func decodeRGBPNG(data: [UInt8], name: String) throws(ImageError) -> (
        width: Int, height: Int, pixels: [UInt8]
    ) {
        guard !data.isEmpty else { throw ImageError(file: name, reason: .emptyFile) }
        guard ImageFormat.detect(data) == .png else { throw ImageError(file: name, reason: .unknownFormat) }
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        let began = data.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard began != 0 else {
            throw ImageError(file: name, reason: .corrupt(format: "PNG", message: rgbMessage(of: image)))
        }
        let width = Int(image.width)
        let height = Int(image.height)
        try checkSize(width: width, height: height, format: .png, name: name)
        image.format = png_uint_32(PNG_FORMAT_RGB)
        var pixels = [UInt8](repeating: 255, count: width * height * 3)
        var white = png_color(red: 255, green: 255, blue: 255)
        let finished = pixels.withUnsafeMutableBytes {
            png_image_finish_read(&image, &white, $0.baseAddress, png_int_32(width * 3), nil)
        }
        guard finished != 0 else {
            throw ImageError(file: name, reason: .corrupt(format: "PNG", message: rgbMessage(of: image)))
        }
        return (width, height, pixels)
    }

    /// Writes an 8-bit RGB PNG. The corresponding C functions are `png_image_write_to_memory`, `open` and `write`.
    public static func writeRGBPNG(width: Int, height: Int, pixels: [UInt8], to path: String) throws(ImageError) {
        try FileIO.writeAll(try encodeRGBPNG(width: width, height: height, pixels: pixels), path: path)
    }

    /// Reads a PNG file as 8-bit RGB. The corresponding C functions are `open`, `read` and libpng's.
    public static func readRGBPNG(path: String) throws(ImageError) -> (width: Int, height: Int, pixels: [UInt8]) {
        try decodeRGBPNG(data: try FileIO.readAll(path: path), name: path)
    }

    /// The NUL-terminated text libpng left in `png_image.message`.
    private static func rgbMessage(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return bytes.isEmpty ? "unknown libpng error" : String(decoding: bytes, as: UTF8.self)
        }
    }
}
