import Foundation

/// A kiosk database key file for a test's kiosk folder: 32 random bytes, mode 0600, in a folder of its own
/// (`keys/`, so not beside the database), named in its kiosk.conf as `database_key_file`.
public enum TestDatabaseKey {
    /// Where a test kiosk keeps its key, relative to its folder.
    public static let relativePath = "keys/kiosk-db.key"

    /// Writes a new random key to `path` (its folder made if missing), unless one is there already.
    public static func write(to path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        let key = Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
        guard FileManager.default.createFile(atPath: path, contents: key, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }

    /// The kiosk.conf line that names the key in `relativePath`.
    public static let configurationLine = "database_key_file = \(relativePath)"
}
