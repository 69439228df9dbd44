/// A failure of a cryptographic step: which step, on what, and why.
public struct CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    public var operation: String
    public var detail: String

    public init(operation: String, detail: String) {
        self.operation = operation
        self.detail = detail
    }

    public var description: String { "\(operation): \(detail)" }

    /// The error of `operation` from what swift-crypto threw.
    static func wrapping(_ error: any Error, _ operation: String) -> CryptoError {
        CryptoError(operation: operation, detail: "\(error)")
    }
}
