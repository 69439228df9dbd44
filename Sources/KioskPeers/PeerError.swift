/// What went wrong on the LAN between doors. None of it ever stops the door: a link that fails is dropped and
/// tried again, and the door goes on deciding from what it holds.
public struct PeerError: Error, Equatable, Sendable, CustomStringConvertible {
    public var operation: String
    public var detail: String

    public init(operation: String, detail: String) {
        self.operation = operation
        self.detail = detail
    }

    public var description: String { "\(operation): \(detail)" }
}
