#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and writes over POSIX calls, each error naming the call and carrying errno.
enum FileIO {
    /// Runs a system call, retrying on `EINTR`; a result of -1 becomes an `ImageError` naming `call`.
    static func syscall<T: FixedWidthInteger>(
        _ call: String,
        file: String,
        _ body: () -> T
    ) throws(ImageError) -> T {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = errno
            if code == EINTR { continue }
            throw ImageError(file: file, reason: .system(call: call, errno: code))
        }
    }

    /// The whole file. The corresponding C functions are `open`, `fstat` and `read`.
    static func readAll(path: String) throws(ImageError) -> [UInt8] {
        let fd = try syscall("open", file: path) { open(path, O_RDONLY | O_CLOEXEC) }
        defer { close(fd) }
        var info = stat()
        _ = try syscall("fstat", file: path) { fstat(fd, &info) }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw ImageError(file: path, reason: .system(call: "read", errno: EISDIR))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size) + 1)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try syscall("read", file: path) {
                chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    /// Replaces the file's contents. The corresponding C functions are `open` and `write`.
    static func writeAll(_ bytes: [UInt8], path: String) throws(ImageError) {
        let fd = try syscall("open", file: path) { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        var offset = 0
        while offset < bytes.count {
            do {
                offset += try syscall("write", file: path) {
                    bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
                }
            } catch {
                close(fd)
                throw error
            }
        }
        let closed = close(fd)
        if closed == -1 { throw ImageError(file: path, reason: .system(call: "close", errno: errno)) }
    }
}

extension ImageError {
    /// `strerror`'s text for an errno.
    static func errnoText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
