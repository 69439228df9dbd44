import Cryptography
import Foundation
import SystemCalls

/// Where the server's secrets key comes from: `--secrets-key-file`, else the systemd credential
/// `checkin-secrets-key` (`LoadCredential=`/`LoadCredentialEncrypted=`, found in `$CREDENTIALS_DIRECTORY`), else
/// `checkin-secrets.key` beside the database. A key file that does not exist is made (32 random bytes, base64,
/// 0600, its folder 0700); a credential is never made here.
public enum SecretsKeySource: Equatable, Sendable, CustomStringConvertible {
    case file(String)
    case credential(String)

    /// The credential's name in the unit (`LoadCredentialEncrypted=checkin-secrets-key:/etc/...`).
    public static let credentialName = "checkin-secrets-key"
    /// The default key file's name, in the database's folder.
    public static let defaultFileName = "checkin-secrets.key"

    /// `explicit` (the option) first, then the credential if the service manager passed one, then
    /// `defaultFile`.
    public static func choose(explicit: String?, defaultFile: String, environment: [String: String])
        -> SecretsKeySource
    {
        if let explicit { return .file(explicit) }
        if let folder = environment["CREDENTIALS_DIRECTORY"], !folder.isEmpty {
            let path = folder + "/" + credentialName
            if FileManager.default.fileExists(atPath: path) { return .credential(path) }
        }
        return .file(defaultFile)
    }

    public var description: String {
        switch self {
        case .file(let path): "the secrets key file \(path)"
        case .credential(let path): "the systemd credential \(path)"
        }
    }

    /// The key, and whether it was made just now (say so: it must be backed up with the database).
    public func load() throws(SecretsKeyError) -> (key: SecretsKey, created: Bool) {
        var created = false
        if case .file(let path) = self, PrivateFile.permissions(path) == nil {
            created = try Self.create(path)
        }
        let path: String
        switch self {
        case .file(let file):
            path = file
            // Like ssh with its keys: a key others can read is refused, not used.
            if let mode = PrivateFile.permissions(path), mode & 0o077 != 0 {
                throw .readableByOthers(path, mode: mode)
            }
        case .credential(let file): path = file
        }
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path: path, limit: 4096)
        } catch {
            throw .unreadable(description, why: error.description)
        }
        guard let key = Self.parse(bytes) else { throw .malformed(description, bytes: bytes.count) }
        do {
            return (try SecretsKey(bytes: key), created)
        } catch {
            throw .malformed(description, bytes: bytes.count)
        }
    }

    /// 32 raw bytes, or their base64 on one line (what `openssl rand -base64 32` writes).
    static func parse(_ bytes: [UInt8]) -> [UInt8]? {
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if let decoded = Data(base64Encoded: text), decoded.count == SecretBox.keyLength { return [UInt8](decoded) }
        return bytes.count == SecretBox.keyLength ? bytes : nil
    }

    /// Makes a new key file, its folder 0700 if missing; false when another process made it first.
    static func create(_ path: String) throws(SecretsKeyError) -> Bool {
        do {
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty { try PrivateFile.createDirectory(folder) }
            let key = try SecretBox.randomKey()
            return try PrivateFile.createExclusively(Array((Data(key).base64EncodedString() + "\n").utf8), path: path)
        } catch let error as SystemCallError {
            throw .cannotCreate(path, why: error.description)
        } catch {
            throw .cannotCreate(path, why: "\(error)")
        }
    }
}

/// Why the secrets key could not be had; each says what to do.
public enum SecretsKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadable(String, why: String)
    case readableByOthers(String, mode: UInt32)
    case malformed(String, bytes: Int)
    case cannotCreate(String, why: String)

    public var description: String {
        switch self {
        case .unreadable(let source, let why):
            "cannot read \(source): \(why); give the file the server's secrets are sealed with (--secrets-key-file)"
        case .readableByOthers(let path, let mode):
            "the secrets key file \(path) can be read by other users (mode \(String(mode, radix: 8))): "
                + "run 'chmod 600 \(path)' and keep it owned by the server's user"
        case .malformed(let source, let bytes):
            "\(source) holds \(bytes) bytes, not a secrets key: a key is 32 random bytes or their base64 on one "
                + "line ('openssl rand -base64 32')"
        case .cannotCreate(let path, let why):
            "cannot make a new secrets key file \(path): \(why); make the folder writable by the server's user, "
                + "or give --secrets-key-file"
        }
    }
}
