import Foundation

/// A Standard Webhooks secret: `whsec_` and the base64 of random bytes (24 to 64 recommended; this server makes
/// 32); the bytes are the HMAC key.
public struct WebhookSecretKey: Sendable, Equatable {
    public let bytes: [UInt8]

    public static let prefix = "whsec_"

    /// Parses `whsec_<base64>`; as the reference libraries do, the prefix and the base64 padding may be left
    /// out.
    public init(_ text: String) throws(WebhookVerificationError) {
        var body = text.hasPrefix(Self.prefix) ? String(text.dropFirst(Self.prefix.count)) : text
        if body.count % 4 != 0 { body += String(repeating: "=", count: 4 - body.count % 4) }
        guard let data = Data(base64Encoded: body), (1...512).contains(data.count) else { throw .badSecret }
        bytes = [UInt8](data)
    }

    /// A new secret of 32 random bytes, as `whsec_<base64>`.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return prefix + Data(bytes).base64EncodedString()
    }
}
