internal import COpenSSL
import Foundation

/// A public key a kiosk trusts to verify passes.
public struct Ed25519PublicKey: Sendable, Equatable {
    let key: EVPKey
    /// The 32 raw key bytes.
    public let raw: [UInt8]

    /// The C function is `EVP_PKEY_new_raw_public_key`.
    public init(raw: [UInt8]) throws(CryptoError) {
        guard raw.count == 32 else {
            throw CryptoError(operation: "Ed25519 public key", detail: "must be 32 bytes, got \(raw.count)")
        }
        guard let k = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, raw, 32) else {
            throw CryptoError.fromQueue("EVP_PKEY_new_raw_public_key")
        }
        key = EVPKey(k)
        self.raw = raw
    }

    public init(pem: String, name: String = "public key") throws(CryptoError) {
        let k = try EVPKey.readPEM(Array(pem.utf8), privateKey: false, name: name)
        key = k
        raw = try k.rawPublicKey()
    }

    public func pem() throws(CryptoError) -> String { try key.pem(privateKey: false) }

    /// Base64 of the raw key, as it may stand in kiosk.conf (`trusted_key = 1 ed25519:<base64>`).
    public var base64: String { Data(raw).base64EncodedString() }

    /// Whether `signature` signs `message`. The C function is `EVP_DigestVerify`.
    public func isValidSignature(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        guard signature.count == 64, let ctx = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(ctx) }
        guard EVP_DigestVerifyInit(ctx, nil, nil, nil, key.pointer) == 1 else {
            ERR_clear_error()
            return false
        }
        let ok = EVP_DigestVerify(ctx, signature, signature.count, message, message.count) == 1
        if !ok { ERR_clear_error() }
        return ok
    }

    public static func == (a: Ed25519PublicKey, b: Ed25519PublicKey) -> Bool { a.raw == b.raw }
}
