internal import CTurboJPEG
import GrayImage

/// JPEG through TurboJPEG's v2 API (`tjDecompress2`, `tjCompress2`), always as 8-bit grey.
///
/// libjpeg warnings are tolerated (phone JPEGs often carry stray bytes before a marker) except
/// "premature end" (a truncated file), which is an error: half a picture is not the picture.
enum JPEGCodec {
    static func decode(_ data: [UInt8], name: String) throws(ImageError) -> GrayFrame {
        guard let handle = tjInitDecompress() else {
            throw ImageError(file: name, reason: .corrupt(format: "JPEG", message: lastError(nil)))
        }
        defer { tjDestroy(handle) }

        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let headerRead = data.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt($0.count), &width, &height, &subsampling, &colorspace)
        }
        // A header cut short by the end of the file is truncation, not corruption; libjpeg may even
        // "succeed" on it (a tables-only stream) with a size of zero.
        let endsWithEOI = data.suffix(2).elementsEqual([0xFF, 0xD9])
        guard headerRead == 0 else {
            throw failure(handle, data, name: name, message: lastError(handle), truncated: !endsWithEOI)
        }
        if (width <= 0 || height <= 0) && !endsWithEOI {
            throw ImageError(file: name, reason: .truncated(format: "JPEG"))
        }
        try ImageFile.checkSize(width: Int(width), height: Int(height), format: .jpeg, name: name)

        var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height))
        let decoded = pixels.withUnsafeMutableBufferPointer { out in
            data.withUnsafeBufferPointer {
                tjDecompress2(
                    handle, $0.baseAddress, UInt($0.count), out.baseAddress, width, width, height,
                    Int32(TJPF_GRAY.rawValue), 0)
            }
        }
        if decoded != 0 {
            let isWarning = tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue)
            let message = lastError(handle)
            if !isWarning || message.mentionsPrematureEnd {
                throw failure(handle, data, name: name, message: message)
            }
        }
        return GrayFrame(width: Int(width), height: Int(height), pixels: pixels)
    }

    static func encode(_ frame: GrayFrame, quality: Int, name: String) throws(ImageError) -> [UInt8] {
        guard !frame.isEmpty else { throw ImageError(file: name, reason: .emptyImage(format: "JPEG")) }
        guard let handle = tjInitCompress() else {
            throw ImageError(file: name, reason: .encodingFailed(format: "JPEG", message: lastError(nil)))
        }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { tjFree(output) }
        let status = frame.pixels.withUnsafeBufferPointer {
            tjCompress2(
                handle, $0.baseAddress, Int32(frame.width), Int32(frame.width), Int32(frame.height),
                Int32(TJPF_GRAY.rawValue), &output, &size, Int32(TJSAMP_GRAY.rawValue),
                Int32(min(max(quality, 1), 100)), 0)
        }
        guard status == 0, let output else {
            throw ImageError(file: name, reason: .encodingFailed(format: "JPEG", message: lastError(handle)))
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    private static func failure(
        _ handle: tjhandle, _ data: [UInt8], name: String, message: String, truncated: Bool = false
    ) -> ImageError {
        if truncated || message.mentionsPrematureEnd {
            return ImageError(file: name, reason: .truncated(format: "JPEG"))
        }
        return ImageError(file: name, reason: .corrupt(format: "JPEG", message: message))
    }

    /// TurboJPEG's (per-handle) error text. The corresponding C function is `tjGetErrorStr2`.
    private static func lastError(_ handle: tjhandle?) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown TurboJPEG error" }
        return String(cString: text)
    }
}

extension String {
    /// libjpeg's `JWRN_JPEG_EOF` warning: "Premature end of JPEG file".
    fileprivate var mentionsPrematureEnd: Bool {
        contains("Premature end") || contains("premature end")
    }
}
