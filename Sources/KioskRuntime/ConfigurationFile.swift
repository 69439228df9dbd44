import Foundation
import KioskCore

/// Reads `kiosk.conf` from disk.
public enum ConfigurationFile {
    /// A kiosk.conf is a few kilobytes; anything larger is the wrong file.
    public static let maximumSize = 1 << 20

    /// Loads and parses the file; relative paths in it are resolved against its folder, made absolute
    /// against the current directory so that `--config kiosk.conf` works as well as a full path.
    public static func load(_ path: String) throws(KioskError) -> KioskConfiguration {
        let bytes = try contents(of: path)
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let folder = (absolute as NSString).deletingLastPathComponent
        do throws(ConfigurationError) {
            return try KioskConfiguration.parse(bytes: bytes, file: path, baseDirectory: folder.isEmpty ? "/" : folder)
        } catch {
            throw .configuration(error)
        }
    }

    /// The file's bytes, after checking it is a regular file of at most `maximumSize` bytes: a FIFO, a
    /// device such as /dev/zero or a huge file is refused before anything is read, never hangs or fills memory.
    /// The corresponding C functions are `open` (non-blocking, so a FIFO does not wait for a writer), `fstat`
    /// and `read`.
    static func contents(of path: String) throws(KioskError) -> [UInt8] {
        func fail(_ message: String) -> KioskError {
            .configuration(ConfigurationError(file: path, line: 0, message: message))
        }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            switch e {
            case ENOENT, ENOTDIR: throw fail("the configuration file does not exist: check the path (--config)")
            case EACCES:
                throw fail(
                    "the configuration file cannot be read (permission denied): make it readable by the kiosk's user")
            default:
                throw fail(
                    "the configuration file cannot be opened (\(String(cString: strerror(e)))): check the path (--config)"
                )
            }
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw fail("the configuration file cannot be examined (fstat: \(String(cString: strerror(errno))))")
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            let what =
                kind == S_IFDIR
                ? "a folder"
                : kind == S_IFIFO ? "a FIFO" : kind == S_IFCHR || kind == S_IFBLK ? "a device" : "not a regular file"
            throw fail(
                "the configuration file is \(what), not a regular file: point --config at the kiosk.conf text file")
        }
        guard Int(info.st_size) <= maximumSize else {
            throw fail(
                "the configuration file is \(info.st_size) bytes, more than the \(maximumSize) a kiosk.conf may have: check the path (--config)"
            )
        }
        var bytes = [UInt8](repeating: 0, count: maximumSize + 1)
        var count = 0
        while count <= maximumSize {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, maximumSize + 1 - count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw fail("the configuration file cannot be read (read: \(String(cString: strerror(errno))))")
            }
            if n == 0 { break }
            count += n
        }
        guard count <= maximumSize else {
            throw fail(
                "the configuration file grew past \(maximumSize) bytes while it was read: check the path (--config)")
        }
        return Array(bytes[..<count])
    }
}
