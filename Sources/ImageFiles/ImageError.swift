import SystemCalls
import SystemPackage

/// Why an image could not be read, decoded or written. Always names the file (or the name given to
/// `ImageFile.decode(data:name:)`), so a log line says which picture is at fault.
public struct ImageError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        /// `open`, `fstat`, `read` or `write` failed; carries the call's name and errno.
        case system(call: String, errno: Int32)
        /// The path names a FIFO, socket, device or directory (`kind` says which: "a FIFO"); refused unread.
        case notRegularFile(kind: String)
        /// The file holds more than `ImageFile.maximumFileSize` bytes; refused before reading.
        case fileTooLarge(size: Int64, limit: Int)
        /// The file holds no bytes at all.
        case emptyFile
        /// The bytes start with none of the magic numbers of PNG, JPEG or binary PGM.
        case unknownFormat
        /// The file ends before the image does (no PNG `IEND`, JPEG ended early, PGM samples missing).
        case truncated(format: String)
        /// The codec refused the data; carries its message (libpng's or libjpeg's).
        case corrupt(format: String, message: String)
        /// A header announces a width or height of zero.
        case emptyImage(format: String)
        /// More pixels than `ImageFile.maximumPixelCount`: refused before allocating.
        case tooLarge(width: Int, height: Int)
        /// An encoder (libpng, TurboJPEG) failed; carries its message.
        case encodingFailed(format: String, message: String)
    }

    /// The path, or the name the caller gave to in-memory data.
    public var file: String
    public var reason: Reason

    public init(file: String, reason: Reason) {
        self.file = file
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .system(let call, let errno):
            return "\(file): \(call) failed: \(Errno.text(errno)) (errno \(errno)). \(Self.advice(errno: errno))"
        case .notRegularFile(let kind):
            return "\(file): is \(kind), not an image file: replace it with a PNG, JPEG or PGM file, or remove it"
        case .fileTooLarge(let size, let limit):
            return "\(file): is \(ByteCount.text(size)), more than the \(ByteCount.text(Int64(limit))) limit for an "
                + "image file (a door image is a few MB): remove it, or save the picture smaller"
        case .emptyFile:
            return "\(file): file is empty: copy the picture again"
        case .unknownFormat:
            return "\(file): not a PNG, JPEG or binary PGM image: convert it to one of these, or remove it"
        case .truncated(let format):
            return "\(file): truncated \(format) file: copy the picture again (this copy was cut short)"
        case .corrupt(let format, let message):
            return "\(file): corrupt \(format) data: \(message). Copy the picture again, or save it anew"
        case .emptyImage(let format):
            return "\(file): \(format) image has zero width or height: save the picture again"
        case .tooLarge(let width, let height):
            let limit = ImageFile.maximumPixelCount / 1_000_000
            return "\(file): image of \(width)x\(height) pixels is larger than the \(limit) MP limit: "
                + "scale it down (a QR code needs a few megapixels at most)"
        case .encodingFailed(let format, let message):
            return "\(file): \(format) encoding failed: \(message)"
        }
    }
}
