internal import COpenSSL

/// An OpenSSL failure: which call failed, on what, and OpenSSL's own reason.
public struct CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    public var operation: String
    public var detail: String

    public init(operation: String, detail: String) {
        self.operation = operation
        self.detail = detail
    }

    public var description: String { "\(operation): \(detail)" }

    /// Takes OpenSSL's error queue (and empties it) into a CryptoError for `operation`.
    static func fromQueue(_ operation: String) -> CryptoError {
        var reasons: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return CryptoError(operation: operation, detail: reasons.isEmpty ? "failed" : reasons.joined(separator: "; "))
    }
}

/// Runs an OpenSSL call that returns 1 on success; anything else becomes a CryptoError naming the call.
func openssl(_ call: String, _ body: () -> Int32) throws(CryptoError) {
    guard body() == 1 else { throw CryptoError.fromQueue(call) }
}
