import Foundation
import KioskCrypto

#if canImport(Glibc)
    import Glibc
#endif

/// Where pass images are kept: one PNG per pass, named by the SHA-256 of the pass's text (never a sequential
/// id, so names cannot be guessed or enumerated). Writing is idempotent: a retried store finds its file.
public struct PassImageStore: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The file name of a pass's image: 32 hex digits of the SHA-256 of its text.
    public static func name(pass: String) -> String { String(SHA256.hexDigest(pass).prefix(32)) + ".png" }

    public func path(name: String) -> String { directory + "/" + name }

    /// Writes the image unless a file of that name holds it already; a partial file never takes the name
    /// (written aside, flushed, then renamed). Returns the name.
    public func store(pass: String, png: [UInt8]) throws -> String {
        let name = Self.name(pass: pass)
        let path = path(name: name)
        let files = FileManager.default
        if let existing = files.contents(atPath: path), [UInt8](existing) == png { return name }
        try files.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let temporary = path + ".part-\(UUID().uuidString)"
        guard files.createFile(atPath: temporary, contents: Data(png)) else {
            throw PassStoreFailure(path: temporary)
        }
        if let handle = FileHandle(forWritingAtPath: temporary) {
            try handle.synchronize()
            try handle.close()
        }
        // rename(2) replaces a file of that name (a partial one cannot have it: names are only ever renamed in).
        guard rename(temporary, path) == 0 else { throw PassStoreFailure(path: path) }
        // The folder's entry on disk too, before the step's commit says the image is stored.
        let folder = open(directory, O_RDONLY | O_DIRECTORY)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
        return name
    }

    public func read(name: String) -> [UInt8]? {
        guard name.count == 36, name.hasSuffix(".png"), name.dropLast(4).allSatisfy(\.isHexDigit) else { return nil }
        return FileManager.default.contents(atPath: path(name: name)).map { [UInt8]($0) }
    }
}

struct PassStoreFailure: Error, CustomStringConvertible {
    var path: String
    var description: String { "cannot write \(path): check that the pass folder exists and is writable" }
}
