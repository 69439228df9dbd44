internal import COpenSSL
import Foundation

/// An OpenSSL `EVP_PKEY` holding an Ed25519 key; freed with `EVP_PKEY_free` when the owner goes.
/// Keys are not changed after creation, so one may verify from several tasks at once.
final class EVPKey: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { EVP_PKEY_free(pointer) }

    /// The corresponding C function is `EVP_PKEY_get_raw_public_key`.
    func rawPublicKey() throws(CryptoError) -> [UInt8] {
        var length = 32
        var out = [UInt8](repeating: 0, count: 32)
        try openssl("EVP_PKEY_get_raw_public_key") { EVP_PKEY_get_raw_public_key(pointer, &out, &length) }
        return Array(out.prefix(length))
    }

    /// Reads a PEM file with `PEM_read_bio_PrivateKey` or `PEM_read_bio_PUBKEY`.
    /// The largest PEM text read as a key: an Ed25519 key's PEM is about 120 bytes.
    static let maximumPEMSize = 64 << 10

    static func readPEM(_ pem: [UInt8], privateKey: Bool, name: String) throws(CryptoError) -> EVPKey {
        let what = privateKey ? "private" : "public"
        // Its length is handed to OpenSSL as an Int32, which traps past 2 GiB.
        guard pem.count <= maximumPEMSize else {
            throw CryptoError(
                operation: "reading \(what) key \(name)",
                detail: "\(pem.count) bytes, more than a key file's \(maximumPEMSize): is it the right file?")
        }
        let key: OpaquePointer? = pem.withUnsafeBytes { raw in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return privateKey ? PEM_read_bio_PrivateKey(bio, nil, nil, nil) : PEM_read_bio_PUBKEY(bio, nil, nil, nil)
        }
        guard let key else {
            throw CryptoError(
                operation: "reading \(what) key \(name)",
                detail: "not a PEM \(what) key (\(CryptoError.fromQueue("PEM_read_bio").detail))")
        }
        let evp = EVPKey(key)
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_ED25519 else {
            throw CryptoError(operation: "reading \(what) key \(name)", detail: "the key is not an Ed25519 key")
        }
        return evp
    }

    /// Writes the key as PEM with `PEM_write_bio_PrivateKey` (PKCS#8) or `PEM_write_bio_PUBKEY`.
    func pem(privateKey: Bool) throws(CryptoError) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw CryptoError.fromQueue("BIO_new") }
        defer { BIO_free(bio) }
        if privateKey {
            try openssl("PEM_write_bio_PrivateKey") { PEM_write_bio_PrivateKey(bio, pointer, nil, nil, 0, nil, nil) }
        } else {
            try openssl("PEM_write_bio_PUBKEY") { PEM_write_bio_PUBKEY(bio, pointer) }
        }
        var data: UnsafeMutablePointer<CChar>?
        let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &data)
        guard let data, length > 0 else { throw CryptoError(operation: "BIO_get_mem_data", detail: "empty") }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    }
}
