internal import Crypto
import Foundation

/// The issuer's signing key. Only the issuer has it; kiosks hold public keys only.
public struct Ed25519PrivateKey: Sendable {
    let key: Curve25519.Signing.PrivateKey

    /// A new random key.
    public static func generate() throws(CryptoError) -> Ed25519PrivateKey {
        Ed25519PrivateKey(key: Curve25519.Signing.PrivateKey())
    }

    /// A key from its 32-byte seed (deterministic test fixtures).
    public init(seed: [UInt8]) throws(CryptoError) {
        guard seed.count == 32 else {
            throw CryptoError(operation: "Ed25519 seed", detail: "must be 32 bytes, got \(seed.count)")
        }
        do {
            key = try Curve25519.Signing.PrivateKey(rawRepresentation: seed)
        } catch {
            throw CryptoError.wrapping(error, "Ed25519 seed")
        }
    }

    init(key: Curve25519.Signing.PrivateKey) { self.key = key }

    public init(pem: String, name: String = "private key") throws(CryptoError) {
        try self.init(seed: Ed25519PEM.keyBytes(pem, privateKey: true, name: name))
    }

    public var publicKey: Ed25519PublicKey {
        get throws(CryptoError) { try Ed25519PublicKey(raw: Array(key.publicKey.rawRepresentation)) }
    }

    /// The key as PKCS#8 PEM ("PRIVATE KEY").
    public func pem() throws(CryptoError) -> String {
        Ed25519PEM.pem(Array(key.rawRepresentation), privateKey: true)
    }

    /// Signs `message` (Ed25519 signs the message itself, no digest; RFC 8032, deterministic).
    public func sign(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        do {
            return Array(try key.signature(for: message))
        } catch {
            throw CryptoError.wrapping(error, "Ed25519 signing")
        }
    }
}
