/// A failed exchange with the check-in server: what was tried, what went wrong, and what to do.
public struct SyncError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The server could not be reached (connection refused, timed out, cut): retried with backoff.
        case unreachable
        /// The server's certificate was not trusted, or the CA file could not be read.
        case tls
        /// The server refused the device's token (revoked, or enrolled elsewhere): enrol again.
        case unauthorized
        /// The server answered with an error (`status`, its `code`).
        case server(status: Int, code: String)
        /// The answer was not what the API says.
        case badAnswer
        /// The kiosk is not enrolled, or kiosk.conf names no server.
        case notEnrolled
        /// The server's address is not one the kiosk talks to (not a URL, or plain HTTP to another machine).
        case badAddress
        /// The event requires a newer kiosk (HTTP 426): the door stops admitting, the queue still goes up.
        case updateRequired
    }

    public var kind: Kind
    /// What was being done, e.g. "uploading 50 check-ins to https://host:8443".
    public var operation: String
    /// What went wrong.
    public var message: String
    /// What the operator can do.
    public var advice: String

    public init(kind: Kind, operation: String, message: String, advice: String) {
        self.kind = kind
        self.operation = operation
        self.message = message
        self.advice = advice
    }

    /// Whether trying again later may succeed (the queue stays; the worker backs off).
    public var isTransient: Bool {
        switch kind {
        case .unreachable: true
        case .server(let status, _): status >= 500 || status == 429
        case .tls, .unauthorized, .badAnswer, .notEnrolled, .badAddress, .updateRequired: false
        }
    }

    public var description: String { "\(operation): \(message); \(advice)" }
}
