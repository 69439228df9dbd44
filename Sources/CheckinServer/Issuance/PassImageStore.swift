import Cryptography
import Foundation
import SystemCalls

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
    /// (written aside, flushed, then renamed, the folder flushed before the step's commit says the image is
    /// stored). The folder is 0700 and the image 0600, whatever the umask. Returns the name.
    public func store(pass: String, png: [UInt8]) throws -> String {
        let name = Self.name(pass: pass)
        let path = path(name: name)
        if let existing = FileManager.default.contents(atPath: path), [UInt8](existing) == png { return name }
        do {
            try PrivateFile.createDirectory(directory)
            try PrivateFile.restrict(directory)
            try PrivateFile.replace(png, path: path)
        } catch {
            throw PassStoreFailure(path: path, why: error.description)
        }
        return name
    }

    /// Takes group and other permissions off the folder and the images an older version wrote with the umask's
    /// modes. Nothing when the folder does not exist yet.
    public func restrictExisting() throws {
        try PrivateFile.restrict(directory)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            try PrivateFile.restrict(path(name: name))
        }
    }

    public func read(name: String) -> [UInt8]? {
        guard name.count == 36, name.hasSuffix(".png"), name.dropLast(4).allSatisfy(\.isHexDigit) else { return nil }
        return FileManager.default.contents(atPath: path(name: name)).map { [UInt8]($0) }
    }
}

struct PassStoreFailure: Error, CustomStringConvertible {
    var path: String
    var why: String
    var description: String { "cannot write \(path) (\(why)): check that the pass folder is writable" }
}
