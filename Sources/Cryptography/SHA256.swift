internal import Crypto

/// SHA-256: the check-in server stores only the digests of device tokens and enrolment codes.
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] { Array(Crypto.SHA256.hash(data: bytes)) }

    /// The digest of the UTF-8 text, as 64 lower-case hex digits.
    public static func hexDigest(_ text: String) -> String {
        hash(Array(text.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
