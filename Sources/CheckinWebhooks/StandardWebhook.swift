import BoundedNumbers
import Cryptography
import Foundation

/// Standard Webhooks (v1): the signature is `v1,<base64 of HMAC-SHA256(id.timestamp.body)>`, keyed with the
/// secret's bytes; the `webhook-signature` header may carry several, space-separated (the sender rotating
/// secrets); a timestamp more than five minutes away is refused.
public enum StandardWebhook {
    public static let tolerance: Int64 = 5 * 60

    /// The `v1,<base64>` signature of a message.
    public static func sign(id: String, timestamp: Int64, body: [UInt8], secret: WebhookSecretKey) -> String {
        "v1," + Data(mac(id: id, timestamp: String(timestamp), body: body, key: secret.bytes)).base64EncodedString()
    }

    static func mac(id: String, timestamp: String, body: [UInt8], key: [UInt8]) -> [UInt8] {
        HMACSHA256.mac(key: key, message: Array("\(id).\(timestamp).".utf8) + body)
    }

    /// Checks the three headers against the raw body and every secret in `secrets` (constant-time). Returns the
    /// `webhook-id`, which the receiver must remember so that a message seen before is not processed twice.
    public static func verify(
        id: String?, timestamp: String?, signature: String?, body: [UInt8], secrets: [WebhookSecretKey], now: Date
    ) throws(WebhookVerificationError) -> String {
        guard let id, !id.isEmpty else { throw .missingHeader("webhook-id") }
        guard let timestamp, !timestamp.isEmpty else { throw .missingHeader("webhook-timestamp") }
        guard let signature, !signature.isEmpty else { throw .missingHeader("webhook-signature") }
        // Parsed into 1970...9999 before any arithmetic, so the difference and its magnitude fit:
        // `-9223372036854775808 - now` trapped, and one anonymous request killed the server.
        guard let seconds = BoundedInteger.parse(timestamp, in: ClockDistance.seconds) else { throw .badTimestamp }
        let off = seconds - Int64(now.timeIntervalSince1970.rounded(.down))
        guard off.magnitude <= tolerance else { throw .timestampOutOfRange(secondsOff: off) }
        let offered = signature.split(separator: " ").compactMap { entry -> [UInt8]? in
            let parts = entry.split(separator: ",", maxSplits: 1)
            guard parts.count == 2, parts[0] == "v1", let data = Data(base64Encoded: String(parts[1])) else {
                return nil
            }
            return [UInt8](data)
        }
        for secret in secrets {
            let expected = mac(id: id, timestamp: timestamp, body: body, key: secret.bytes)
            // Every offered signature is compared, matched or not, so the time taken says nothing of which.
            var matched = false
            for candidate in offered where HMACSHA256.constantTimeEqual(candidate, expected) { matched = true }
            if matched { return id }
        }
        throw .noMatchingSignature
    }
}
