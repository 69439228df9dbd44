import Foundation
import KioskCore

/// Reads `kiosk.conf` from disk.
public enum ConfigurationFile {
    /// Loads and parses the file; relative paths in it are resolved against its folder.
    public static func load(_ path: String) throws(KioskError) -> KioskConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else {
            let why = FileManager.default.fileExists(atPath: path) ? "cannot be read (permissions?)" : "does not exist"
            throw .configuration(ConfigurationError(file: path, line: 0, message: "the configuration file \(why)"))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .configuration(ConfigurationError(file: path, line: 0, message: "the file is not UTF-8 text"))
        }
        let folder = (path as NSString).deletingLastPathComponent
        do {
            return try KioskConfiguration.parse(text, file: path, baseDirectory: folder.isEmpty ? "." : folder)
        } catch {
            throw .configuration(error)
        }
    }
}
