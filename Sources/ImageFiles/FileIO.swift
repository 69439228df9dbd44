import SystemCalls

/// Whole-file reads and writes for images, through SystemCalls's safe regular-file reader: the file's type and size
/// are checked before it is read, so a FIFO, /dev/zero or a 30 GB file is refused instead of hanging or crashing.
enum FileIO {
    /// The whole file, at most `ImageFile.maximumFileSize` bytes. The corresponding C functions are `open`,
    /// `fstat` and `read`.
    static func readAll(path: String) throws(ImageError) -> [UInt8] {
        do {
            return try RegularFile.read(path: path, limit: ImageFile.maximumFileSize)
        } catch {
            throw ImageError(file: path, error)
        }
    }

    /// Replaces the file's contents. The corresponding C functions are `open`, `write` and `close`.
    static func writeAll(_ bytes: [UInt8], path: String) throws(ImageError) {
        do {
            try RegularFile.write(bytes, path: path)
        } catch {
            throw ImageError(file: path, reason: .system(call: error.call, errno: error.errno.rawValue))
        }
    }
}

extension ImageError {
    /// The image error for a file the regular-file reader refused.
    init(file: String, _ error: RegularFileError) {
        switch error {
        case .system(let failure):
            self.init(file: file, reason: .system(call: failure.call, errno: failure.errno.rawValue))
        case .notRegularFile(let type):
            self.init(file: file, reason: .notRegularFile(kind: type.article))
        case .tooLarge(let size, let limit):
            self.init(file: file, reason: .fileTooLarge(size: size, limit: limit))
        }
    }
}
