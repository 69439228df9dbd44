internal import Crypto

/// HMAC-SHA256 and a comparison whose time does not depend on where two MACs differ: what a Standard Webhooks
/// signature needs.
public enum HMACSHA256 {
    /// The 32-byte MAC of `message` under `key`.
    public static func mac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        Array(HMAC<Crypto.SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }

    /// Whether `a` equals `b`, in time that depends on the length only.
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
