import Foundation
import KioskCore
import SystemCalls

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

    /// The file's bytes, after checking it is a regular file of at most `maximumSize` bytes
    /// (`RegularFile.read`): a FIFO, a device such as /dev/zero or a huge file is refused before anything is
    /// read, never hangs or fills memory.
    static func contents(of path: String) throws(KioskError) -> [UInt8] {
        func fail(_ message: String) -> KioskError {
            .configuration(ConfigurationError(file: path, line: 0, message: message))
        }
        do {
            return try RegularFile.read(path: path, limit: maximumSize)
        } catch {
            switch error {
            case .system(let e) where e.call == "open" && [ENOENT, ENOTDIR].contains(e.errno.rawValue):
                throw fail("the configuration file does not exist: check the path (--config)")
            case .system(let e) where e.errno.rawValue == EACCES:
                throw fail(
                    "the configuration file cannot be read (permission denied): make it readable by the kiosk's user")
            case .system(let e):
                throw fail("the configuration file cannot be read (\(e)): check the path (--config)")
            case .notRegularFile(let type):
                let what =
                    switch type {
                    case .directory: "a folder"
                    case .characterSpecial, .blockSpecial: "a device"
                    default: type.article
                    }
                throw fail(
                    "the configuration file is \(what), not a regular file: point --config at the kiosk.conf text file")
            case .tooLarge(let size, let limit):
                throw fail(
                    "the configuration file is \(size) bytes, more than the \(limit) a kiosk.conf may have: check the path (--config)"
                )
            }
        }
    }
}
