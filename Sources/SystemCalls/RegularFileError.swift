import SystemPackage

/// Why `RegularFile.read(path:limit:)` refused a file. The reader's callers (image files, and later the
/// configuration and roster readers) wrap it in their own error, which names the file and says what to do.
public enum RegularFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `open`, `fstat` or `read` failed.
    case system(SystemCallError)
    /// The path names a FIFO, socket, device or directory: reading it could hang (FIFO) or never end (/dev/zero).
    case notRegularFile(FileType)
    /// The file holds more than the caller's limit; refused before reading (or as soon as it grew past it).
    case tooLarge(size: Int64, limit: Int)

    /// "is a FIFO, not a regular file", "is 30.0 GB, more than the 64 MiB limit".
    public var description: String {
        switch self {
        case .system(let error): return error.description
        case .notRegularFile(let type): return "is \(type.article), not a regular file"
        case .tooLarge(let size, let limit):
            return "is \(ByteCount.text(size)), more than the \(ByteCount.text(Int64(limit))) limit"
        }
    }
}

extension FileType {
    /// What the file is, with its article: "a FIFO", "a character device".
    public var article: String {
        switch self {
        case .regular: "a regular file"
        case .directory: "a directory"
        case .fifo: "a FIFO"
        case .socket: "a socket"
        case .characterSpecial: "a character device"
        case .blockSpecial: "a block device"
        case .symbolicLink: "a symbolic link"
        default: "a special file"
        }
    }
}
