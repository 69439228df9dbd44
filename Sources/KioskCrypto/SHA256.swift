internal import COpenSSL

/// SHA-256 through OpenSSL: the check-in server stores only the digests of device tokens and enrolment codes.
public enum SHA256 {
    /// The 32-byte digest of `bytes`. The corresponding C function is `EVP_Digest` with `EVP_sha256`.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_sha256(), nil)
        }
        // EVP_Digest with SHA-256 fails only when the library cannot allocate a context.
        precondition(ok == 1 && length == 32, "EVP_Digest(SHA-256) failed: \(CryptoError.fromQueue("EVP_Digest"))")
        return digest
    }

    /// The digest of the UTF-8 text, as 64 lower-case hex digits.
    public static func hexDigest(_ text: String) -> String {
        hash(Array(text.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
