import SystemPackage

/// Whole-file reads and writes that cannot hang or exhaust memory: the file's type and size are checked on the
/// open descriptor before a byte is read.
public enum RegularFile {
    /// The whole regular file at `path`, at most `limit` bytes.
    ///
    /// Opened with `O_NONBLOCK` (a FIFO named like the file cannot block the open) and `O_CLOEXEC`; then
    /// `fstat`: anything but a regular file (FIFO, socket, device such as a link to /dev/zero, directory) is
    /// refused, and so is a file larger than `limit`, before reading. A file that grows while it is read is
    /// refused as soon as more than `limit` bytes have come in.
    ///
    /// The corresponding C functions are `open`, `fstat`, `read` and `close`.
    public static func read(path: String, limit: Int) throws(RegularFileError) -> [UInt8] {
        let fd: FileDescriptor
        do {
            fd = try SystemCall.system("open") {
                try FileDescriptor.open(FilePath(path), .readOnly, options: [.nonBlocking, .closeOnExec])
            }
        } catch {
            throw .system(error)
        }
        defer { try? fd.close() }
        let info: Stat
        do {
            info = try SystemCall.system("fstat") { try fd.stat() }
        } catch {
            throw .system(error)
        }
        guard info.type == .regular else { throw .notRegularFile(info.type) }
        guard info.size <= Int64(limit) else { throw .tooLarge(size: info.size, limit: limit) }

        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.size) + 1)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count: Int
            do {
                count = try SystemCall.system("read") {
                    try chunk.withUnsafeMutableBytes { try fd.read(into: $0) }
                }
            } catch {
                throw .system(error)
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else {
                throw .tooLarge(size: Int64(bytes.count + count), limit: limit)
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Replaces the file's contents (creating it, mode 0644). The corresponding C functions are `open`, `write`
    /// and `close`.
    public static func write(_ bytes: [UInt8], path: String) throws(SystemCallError) {
        let fd = try SystemCall.system("open") {
            try FileDescriptor.open(
                FilePath(path), .writeOnly, options: [.create, .truncate, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
        }
        do {
            _ = try SystemCall.system("write") { try fd.writeAll(bytes) }
        } catch {
            try? fd.close()
            throw error
        }
        try SystemCall.system("close") { try fd.close() }
    }
}
