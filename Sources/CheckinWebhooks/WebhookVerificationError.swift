/// Why a webhook was refused. The sender gets one answer for all of them (401), so nothing here helps a
/// forger; the server's audit log keeps the reason.
public enum WebhookVerificationError: Error, Equatable, Sendable, CustomStringConvertible {
    case missingHeader(String)
    case badTimestamp
    /// More than the tolerance in the past or the future (a replay, or a sender whose clock is wrong).
    case timestampOutOfRange(secondsOff: Int64)
    case noMatchingSignature
    case badSecret

    public var description: String {
        switch self {
        case .missingHeader(let name): "the '\(name)' header is missing"
        case .badTimestamp: "'webhook-timestamp' is not a number of seconds since 1970 (up to the year 9999)"
        case .timestampOutOfRange(let off):
            "'webhook-timestamp' is \(off.magnitude) s in the \(off < 0 ? "past" : "future") (at most 300 s allowed): a replay, or the sender's clock is wrong"
        case .noMatchingSignature: "no 'v1' signature matches the tenant's webhook secrets"
        case .badSecret: "a webhook secret must be 'whsec_' and the base64 of 1 to 512 bytes (24 to 64 recommended)"
        }
    }
}
