internal import Crypto

/// AES-256-GCM under one 32-byte key: seals a secret with a fresh random 96-bit nonce and opens it again only if
/// neither the bytes nor the additional data (what the secret belongs to) changed. A sealed box is
/// `nonce (12) | ciphertext | tag (16)`.
public struct SecretBox: Sendable {
    let key: [UInt8]

    public static let keyLength = 32
    static let nonceLength = 12
    static let tagLength = 16

    /// Throws unless `key` is 32 bytes.
    public init(key: [UInt8]) throws(CryptoError) {
        guard key.count == Self.keyLength else {
            throw CryptoError(operation: "AES-256-GCM key", detail: "must be 32 bytes, got \(key.count)")
        }
        self.key = key
    }

    /// 32 random bytes, for a new key.
    public static func randomKey() throws(CryptoError) -> [UInt8] {
        SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
    }

    /// `plaintext` sealed, bound to `additionalData`, under a fresh random nonce.
    public func seal(_ plaintext: [UInt8], additionalData: [UInt8]) throws(CryptoError) -> [UInt8] {
        do {
            let box = try AES.GCM.seal(plaintext, using: SymmetricKey(data: key), authenticating: additionalData)
            guard let combined = box.combined else {
                throw CryptoError(operation: "AES-256-GCM seal", detail: "a nonce of another length than 12")
            }
            return Array(combined)
        } catch let error as CryptoError {
            throw error
        } catch {
            throw CryptoError.wrapping(error, "AES-256-GCM seal")
        }
    }

    /// The plaintext of a box `seal` made with this key and the same additional data; throws when the key,
    /// the data or a byte of the box differ.
    public func open(_ box: [UInt8], additionalData: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard box.count >= Self.nonceLength + Self.tagLength else {
            throw CryptoError(operation: "AES-256-GCM open", detail: "a sealed box is at least 28 bytes")
        }
        do {
            let sealed = try AES.GCM.SealedBox(combined: box)
            return Array(try AES.GCM.open(sealed, using: SymmetricKey(data: key), authenticating: additionalData))
        } catch {
            throw CryptoError(
                operation: "AES-256-GCM open",
                detail: "the box does not verify: another key, other additional data, or changed bytes")
        }
    }
}
