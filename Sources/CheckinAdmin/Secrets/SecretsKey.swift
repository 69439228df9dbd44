import CheckinCore
import Cryptography
import Foundation

/// The key the server seals its stored secrets with (tenants' signing keys, webhook secrets): AES-256-GCM, a
/// fresh nonce per secret, the secret's row as additional data. It lives outside the database: a key file or
/// a systemd credential (`SecretsKeySource`).
public struct SecretsKey: SecretSealing {
    let box: SecretBox
    public let keyID: String

    /// Throws unless `bytes` is 32 bytes.
    public init(bytes: [UInt8]) throws(CryptoError) {
        box = try SecretBox(key: bytes)
        // Names the key, reveals nothing of it: a hash of the key under a label of its own.
        let digest = SHA256.hash(Array("checkin-server secrets key id\n".utf8) + bytes)
        keyID = digest.prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    /// A new random key (tests, and a first start without a key file).
    public static func random() throws(CryptoError) -> SecretsKey { try SecretsKey(bytes: SecretBox.randomKey()) }

    public func seal(_ secret: String, context: SecretContext) throws(SecretSealingError) -> String {
        do {
            let sealed = try box.seal(Array(secret.utf8), additionalData: Array(context.description.utf8))
            return SealedText.prefix + keyID + ":" + Data(sealed).base64EncodedString()
        } catch {
            throw .crypto(error.description)
        }
    }

    public func open(_ stored: String, context: SecretContext) throws(SecretSealingError) -> String {
        guard let sealedWith = SealedText.keyID(of: stored),
            let box64 = stored.split(separator: ":", maxSplits: 2).last,
            let bytes = Data(base64Encoded: String(box64))
        else { throw .malformed(context) }
        guard sealedWith == keyID else { throw .wrongKey(sealedWith: sealedWith, held: keyID) }
        guard let plain = try? box.open([UInt8](bytes), additionalData: Array(context.description.utf8)),
            let text = String(validating: plain, as: UTF8.self)
        else { throw .doesNotOpen(context) }
        return text
    }
}
