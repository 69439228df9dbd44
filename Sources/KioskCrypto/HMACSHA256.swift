internal import COpenSSL

/// HMAC-SHA256 through OpenSSL, and a comparison whose time does not depend on where two MACs differ: what
/// a Standard Webhooks signature needs.
public enum HMACSHA256 {
    /// The 32-byte MAC of `message` under `key`. The corresponding C function is `HMAC` with `EVP_sha256`.
    public static func mac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { k in
            message.withUnsafeBytes { m in
                // A zero-length buffer may have no address; OpenSSL wants one anyway.
                HMAC(
                    EVP_sha256(), k.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(k.count),
                    m.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(bitPattern: 1), m.count, &out,
                    &length)
            }
        }
        // HMAC with SHA-256 fails only when the library cannot allocate a context.
        precondition(result != nil && length == 32, "HMAC(SHA-256) failed: \(CryptoError.fromQueue("HMAC"))")
        return out
    }

    /// Whether `a` equals `b`, in time that depends on the length only (`CRYPTO_memcmp`).
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, a.count) == 0 }
        }
    }
}
