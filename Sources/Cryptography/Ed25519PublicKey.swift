internal import Crypto
import Foundation

/// A public key a kiosk trusts to verify passes.
public struct Ed25519PublicKey: Sendable, Equatable {
    let key: Curve25519.Signing.PublicKey
    /// The 32 raw key bytes.
    public let raw: [UInt8]

    public init(raw: [UInt8]) throws(CryptoError) {
        guard raw.count == 32 else {
            throw CryptoError(operation: "Ed25519 public key", detail: "must be 32 bytes, got \(raw.count)")
        }
        do {
            key = try Curve25519.Signing.PublicKey(rawRepresentation: raw)
        } catch {
            throw CryptoError.wrapping(error, "Ed25519 public key")
        }
        self.raw = raw
    }

    public init(pem: String, name: String = "public key") throws(CryptoError) {
        try self.init(raw: Ed25519PEM.keyBytes(pem, privateKey: false, name: name))
    }

    /// The key as SubjectPublicKeyInfo PEM ("PUBLIC KEY").
    public func pem() throws(CryptoError) -> String { Ed25519PEM.pem(raw, privateKey: false) }

    /// Base64 of the raw key, as it may stand in kiosk.conf (`trusted_key = 1 ed25519:<base64>`).
    public var base64: String { Data(raw).base64EncodedString() }

    /// Whether `signature` signs `message`.
    public func isValidSignature(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        signature.count == 64 && key.isValidSignature(signature, for: message)
    }

    public static func == (a: Ed25519PublicKey, b: Ed25519PublicKey) -> Bool { a.raw == b.raw }
}
