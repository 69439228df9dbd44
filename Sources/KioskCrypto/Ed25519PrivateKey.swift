internal import COpenSSL
import Foundation

/// The issuer's signing key. Only the issuer has it; kiosks hold public keys only.
public struct Ed25519PrivateKey: Sendable {
    let key: EVPKey

    /// A new random key. The corresponding C functions are `EVP_PKEY_keygen_init` and `EVP_PKEY_keygen`.
    public static func generate() throws(CryptoError) -> Ed25519PrivateKey {
        guard let ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nil) else {
            throw CryptoError.fromQueue("EVP_PKEY_CTX_new_id")
        }
        defer { EVP_PKEY_CTX_free(ctx) }
        try openssl("EVP_PKEY_keygen_init") { EVP_PKEY_keygen_init(ctx) }
        var key: OpaquePointer?
        try openssl("EVP_PKEY_keygen") { EVP_PKEY_keygen(ctx, &key) }
        return Ed25519PrivateKey(key: EVPKey(key!))
    }

    /// A key from its 32-byte seed (deterministic test fixtures). The C function is `EVP_PKEY_new_raw_private_key`.
    public init(seed: [UInt8]) throws(CryptoError) {
        guard seed.count == 32 else {
            throw CryptoError(operation: "Ed25519 seed", detail: "must be 32 bytes, got \(seed.count)")
        }
        guard let k = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, seed, 32) else {
            throw CryptoError.fromQueue("EVP_PKEY_new_raw_private_key")
        }
        key = EVPKey(k)
    }

    init(key: EVPKey) { self.key = key }

    public init(pem: String, name: String = "private key") throws(CryptoError) {
        key = try EVPKey.readPEM(Array(pem.utf8), privateKey: true, name: name)
    }

    public var publicKey: Ed25519PublicKey {
        get throws(CryptoError) { try Ed25519PublicKey(raw: key.rawPublicKey()) }
    }

    public func pem() throws(CryptoError) -> String { try key.pem(privateKey: true) }

    /// Signs `message` (Ed25519 signs the message itself, no digest). The C function is `EVP_DigestSign`.
    public func sign(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard let ctx = EVP_MD_CTX_new() else { throw CryptoError.fromQueue("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(ctx) }
        try openssl("EVP_DigestSignInit") { EVP_DigestSignInit(ctx, nil, nil, nil, key.pointer) }
        var length = 64
        var signature = [UInt8](repeating: 0, count: 64)
        try openssl("EVP_DigestSign") { EVP_DigestSign(ctx, &signature, &length, message, message.count) }
        return Array(signature.prefix(length))
    }
}
