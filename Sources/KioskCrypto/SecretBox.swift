internal import COpenSSL

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

    /// 32 bytes from OpenSSL's generator, for a new key. The corresponding C function is `RAND_bytes`.
    public static func randomKey() throws(CryptoError) -> [UInt8] { try randomBytes(keyLength) }

    static func randomBytes(_ count: Int) throws(CryptoError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        try openssl("RAND_bytes") { RAND_bytes(&bytes, Int32(count)) }
        return bytes
    }

    /// `plaintext` sealed, bound to `additionalData`. The corresponding C functions are `EVP_EncryptInit_ex`,
    /// `EVP_EncryptUpdate`, `EVP_EncryptFinal_ex` with `EVP_aes_256_gcm`.
    public func seal(_ plaintext: [UInt8], additionalData: [UInt8]) throws(CryptoError) -> [UInt8] {
        let nonce = try Self.randomBytes(Self.nonceLength)
        guard let ctx = EVP_CIPHER_CTX_new() else { throw CryptoError.fromQueue("EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(ctx) }
        try openssl("EVP_EncryptInit_ex") { EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), nil, key, nonce) }
        var length: Int32 = 0
        if !additionalData.isEmpty {
            try openssl("EVP_EncryptUpdate (additional data)") {
                EVP_EncryptUpdate(ctx, nil, &length, additionalData, Int32(additionalData.count))
            }
        }
        // GCM is a stream mode: the ciphertext is as long as the plaintext (one spare byte for an empty one).
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count + 1)
        var written: Int32 = 0
        if !plaintext.isEmpty {
            try openssl("EVP_EncryptUpdate") {
                EVP_EncryptUpdate(ctx, &ciphertext, &written, plaintext, Int32(plaintext.count))
            }
        }
        try openssl("EVP_EncryptFinal_ex") {
            ciphertext.withUnsafeMutableBufferPointer { buffer in
                EVP_EncryptFinal_ex(ctx, buffer.baseAddress! + Int(written), &length)
            }
        }
        written += length
        var tag = [UInt8](repeating: 0, count: Self.tagLength)
        try openssl("EVP_CIPHER_CTX_ctrl (EVP_CTRL_AEAD_GET_TAG)") {
            EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, Int32(Self.tagLength), &tag)
        }
        return nonce + ciphertext.prefix(Int(written)) + tag
    }

    /// The plaintext of a box `seal` made with this key and the same additional data; throws when the key,
    /// the data or a byte of the box differ. The corresponding C functions are `EVP_DecryptInit_ex`,
    /// `EVP_DecryptUpdate`, `EVP_DecryptFinal_ex` with `EVP_aes_256_gcm`.
    public func open(_ box: [UInt8], additionalData: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard box.count >= Self.nonceLength + Self.tagLength else {
            throw CryptoError(operation: "AES-256-GCM open", detail: "a sealed box is at least 28 bytes")
        }
        let nonce = Array(box.prefix(Self.nonceLength))
        let ciphertext = Array(box.dropFirst(Self.nonceLength).dropLast(Self.tagLength))
        var tag = Array(box.suffix(Self.tagLength))
        guard let ctx = EVP_CIPHER_CTX_new() else { throw CryptoError.fromQueue("EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(ctx) }
        try openssl("EVP_DecryptInit_ex") { EVP_DecryptInit_ex(ctx, EVP_aes_256_gcm(), nil, key, nonce) }
        var length: Int32 = 0
        if !additionalData.isEmpty {
            try openssl("EVP_DecryptUpdate (additional data)") {
                EVP_DecryptUpdate(ctx, nil, &length, additionalData, Int32(additionalData.count))
            }
        }
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count + 1)
        var written: Int32 = 0
        if !ciphertext.isEmpty {
            try openssl("EVP_DecryptUpdate") {
                EVP_DecryptUpdate(ctx, &plaintext, &written, ciphertext, Int32(ciphertext.count))
            }
        }
        try openssl("EVP_CIPHER_CTX_ctrl (EVP_CTRL_AEAD_SET_TAG)") {
            EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, Int32(Self.tagLength), &tag)
        }
        let verified = plaintext.withUnsafeMutableBufferPointer { buffer in
            EVP_DecryptFinal_ex(ctx, buffer.baseAddress! + Int(written), &length)
        }
        guard verified == 1 else {
            ERR_clear_error()
            throw CryptoError(
                operation: "AES-256-GCM open",
                detail: "the box does not verify: another key, other additional data, or changed bytes")
        }
        return Array(plaintext.prefix(Int(written + length)))
    }
}
