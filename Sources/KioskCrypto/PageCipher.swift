internal import COpenSSL

/// AES-256-GCM over fixed-size pages whose last `reservedBytes` bytes are kept for it: the rest of the page is
/// encrypted in place, and the tail holds the 96-bit nonce, the 128-bit tag and a 4-byte format mark
/// (authenticated as additional data).
///
/// The kiosk's encrypted SQLite pages use it; SQLite leaves the tail alone because the database is created with
/// that many reserved bytes per page.
///
/// Nonces: each cipher draws a random 96-bit start and counts up from it, one per page sealed, so no two seals of
/// one cipher share a nonce, and two ciphers under one key (each connection, each process) collide only if their
/// runs of nonces overlap: with a million ciphers sealing a billion pages each, about 10⁻⁸. A random nonce per
/// page (`RAND_bytes`) cost 1.4 µs of a 2.4 µs seal, and an admit seals some 16 pages with its checkpoint share.
///
/// Owns two OpenSSL contexts (`EVP_CIPHER_CTX`), keyed once: one owner uses it from one thread at a time.
public final class PageCipher {
    /// Bytes at the end of each page that belong to the cipher: nonce 12, tag 16, mark 4.
    public static let reservedBytes = 32
    static let nonceBytes = 12
    static let tagBytes = 16
    /// "KG1" and a zero: AES-256-GCM page format 1.
    static let mark: [UInt8] = [0x4B, 0x47, 0x31, 0x00]

    private let sealing: OpaquePointer
    private let opening: OpaquePointer
    /// The next seal's nonce (little-endian counter).
    private let nextNonce = UnsafeMutablePointer<UInt8>.allocate(capacity: nonceBytes)

    /// A cipher under a 32-byte AES-256 key. The corresponding C functions are `EVP_CIPHER_CTX_new` and
    /// `EVP_EncryptInit_ex`/`EVP_DecryptInit_ex` with `EVP_aes_256_gcm`.
    public init(key: [UInt8]) throws(CryptoError) {
        guard key.count == 32 else {
            throw CryptoError(operation: "AES-256-GCM key", detail: "the key is \(key.count) bytes, not 32")
        }
        guard let sealing = EVP_CIPHER_CTX_new(), let opening = EVP_CIPHER_CTX_new() else {
            throw CryptoError.fromQueue("EVP_CIPHER_CTX_new")
        }
        self.sealing = sealing
        self.opening = opening
        try openssl("EVP_EncryptInit_ex") { EVP_EncryptInit_ex(sealing, EVP_aes_256_gcm(), nil, key, nil) }
        try openssl("EVP_DecryptInit_ex") { EVP_DecryptInit_ex(opening, EVP_aes_256_gcm(), nil, key, nil) }
        try openssl("RAND_bytes") { [nextNonce] in RAND_bytes(nextNonce, Int32(Self.nonceBytes)) }
    }

    deinit {
        EVP_CIPHER_CTX_free(sealing)
        EVP_CIPHER_CTX_free(opening)
        nextNonce.deallocate()
    }

    /// Takes the next nonce into `nonce` and counts on (wrapping after 2⁹⁶ seals, which no kiosk reaches).
    private func takeNonce(into nonce: UnsafeMutablePointer<UInt8>) {
        nonce.update(from: nextNonce, count: Self.nonceBytes)
        for index in 0..<Self.nonceBytes {
            nextNonce[index] &+= 1
            if nextNonce[index] != 0 { break }
        }
    }

    /// Encrypts `page` in place: all but its last `reservedBytes`, which receive the nonce, tag and mark.
    public func seal(_ page: UnsafeMutableRawBufferPointer) throws(CryptoError) {
        precondition(page.count > Self.reservedBytes, "a page is larger than its reserved tail")
        let base = page.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let payload = page.count - Self.reservedBytes
        let nonce = base + payload
        let tag = nonce + Self.nonceBytes
        let mark = tag + Self.tagBytes
        for (index, byte) in Self.mark.enumerated() { mark[index] = byte }
        takeNonce(into: nonce)
        var length: Int32 = 0
        try openssl("EVP_EncryptInit_ex (nonce)") { EVP_EncryptInit_ex(sealing, nil, nil, nil, nonce) }
        try openssl("EVP_EncryptUpdate (mark)") { EVP_EncryptUpdate(sealing, nil, &length, mark, 4) }
        try openssl("EVP_EncryptUpdate") { EVP_EncryptUpdate(sealing, base, &length, base, Int32(payload)) }
        try openssl("EVP_EncryptFinal_ex") { EVP_EncryptFinal_ex(sealing, base + Int(length), &length) }
        try openssl("EVP_CIPHER_CTX_ctrl (get tag)") {
            EVP_CIPHER_CTX_ctrl(sealing, EVP_CTRL_GCM_GET_TAG, Int32(Self.tagBytes), tag)
        }
    }

    /// Whether `page` ends with this format's mark: sealed by a `PageCipher` (under some key), not a page of
    /// anything else.
    public static func isSealed(_ page: UnsafeRawBufferPointer) -> Bool {
        page.count > reservedBytes && page.suffix(4).elementsEqual(mark)
    }

    /// Checks the tag of a sealed `page` and decrypts it in place. False (the page unchanged or garbled, never
    /// to be used) when the page was sealed under another key, was changed, or was never sealed.
    public func open(_ page: UnsafeMutableRawBufferPointer) -> Bool {
        guard page.count > Self.reservedBytes else { return false }
        let base = page.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let payload = page.count - Self.reservedBytes
        let nonce = base + payload
        let tag = nonce + Self.nonceBytes
        let mark = tag + Self.tagBytes
        guard (0..<4).allSatisfy({ mark[$0] == Self.mark[$0] }) else { return false }
        var length: Int32 = 0
        let opened =
            EVP_DecryptInit_ex(opening, nil, nil, nil, nonce) == 1
            && EVP_DecryptUpdate(opening, nil, &length, mark, 4) == 1
            && EVP_DecryptUpdate(opening, base, &length, base, Int32(payload)) == 1
            && EVP_CIPHER_CTX_ctrl(opening, EVP_CTRL_GCM_SET_TAG, Int32(Self.tagBytes), tag) == 1
            && EVP_DecryptFinal_ex(opening, base + Int(length), &length) == 1
        if !opened { ERR_clear_error() }
        return opened
    }
}
