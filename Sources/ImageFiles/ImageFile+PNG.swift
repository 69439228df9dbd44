internal import CPNG
import GrayImage

/// PNG through libpng's simplified API (`png_image_*`): no `setjmp`, errors come back in `message`.
enum PNGCodec {
    private static let iend: [UInt8] = [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

    static func decode(_ data: [UInt8], name: String) throws(ImageError) -> GrayFrame {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }

        let began = data.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard began != 0 else { throw failure(image, data, name: name) }
        let width = Int(image.width)
        let height = Int(image.height)
        try ImageFile.checkSize(width: width, height: height, format: .png, name: name)

        image.format = png_uint_32(PNG_FORMAT_GRAY)
        precondition(CPNG_IMAGE_SIZE(image) == width * height, "8-bit grey rows are unpadded")
        // Composed onto the buffer when the PNG has alpha: white, so transparent backgrounds read as paper.
        var pixels = [UInt8](repeating: 255, count: width * height)
        let finished = pixels.withUnsafeMutableBytes {
            png_image_finish_read(&image, nil, $0.baseAddress, png_int_32(width), nil)
        }
        guard finished != 0 else { throw failure(image, data, name: name) }
        return GrayFrame(width: width, height: height, pixels: pixels)
    }

    static func encode(_ frame: GrayFrame, name: String) throws(ImageError) -> [UInt8] {
        guard !frame.isEmpty else { throw ImageError(file: name, reason: .emptyImage(format: "PNG")) }
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        image.width = png_uint_32(frame.width)
        image.height = png_uint_32(frame.height)
        image.format = png_uint_32(PNG_FORMAT_GRAY)
        defer { png_image_free(&image) }

        // One pass into a buffer larger than any PNG of these pixels can be (the raw rows, a filter byte each,
        // deflate's stored blocks and one chunk header per 8 KiB of IDAT); asking libpng for the size first would
        // compress twice.
        let raw = frame.height * (frame.width + 1)
        var size = png_alloc_size_t(raw + raw / 256 + 4096)
        var output = [UInt8](repeating: 0, count: Int(size))
        let written = output.withUnsafeMutableBytes { out in
            frame.pixels.withUnsafeBytes {
                png_image_write_to_memory(
                    &image, out.baseAddress, &size, 0, $0.baseAddress, png_int_32(frame.width), nil)
            }
        }
        guard written != 0, Int(size) <= output.count else {
            throw ImageError(file: name, reason: .encodingFailed(format: "PNG", message: message(of: image)))
        }
        output.removeLast(output.count - Int(size))
        return output
    }

    /// A truncated file (no `IEND` at the end) is reported as such; otherwise libpng's message.
    private static func failure(_ image: png_image, _ data: [UInt8], name: String) -> ImageError {
        if data.count < 8 + 12 || !data.suffix(8).elementsEqual(iend) {
            return ImageError(file: name, reason: .truncated(format: "PNG"))
        }
        return ImageError(file: name, reason: .corrupt(format: "PNG", message: message(of: image)))
    }

    /// The NUL-terminated text libpng left in `png_image.message`.
    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return bytes.isEmpty ? "unknown libpng error" : String(decoding: bytes, as: UTF8.self)
        }
    }
}
