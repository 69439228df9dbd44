/// Why a message was not handed to the relay, and whether trying again later can help.
///
/// The workflow retries a transient failure (a 4xx reply, a relay that cannot be reached, a failed TLS
/// handshake, a timeout) and fails the step on a permanent one (a 5xx reply, a message libcurl refuses).
public struct SMTPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, in the terms an operator acts on.
    public enum Kind: String, Sendable, Equatable {
        /// The relay answered 4xx (greylisting, mailbox busy, a local error): try again later.
        case rejectedTemporarily
        /// The relay answered 5xx (unknown recipient, policy, message refused, wrong credentials).
        case rejectedPermanently
        /// No connection: refused, host not found, or no answer before the connect timeout.
        case unreachable
        /// The TLS handshake failed, the relay's certificate was not trusted (wrong CA, wrong name, expired),
        /// or the relay did not offer STARTTLS.
        case tlsFailed
        /// The relay went silent or the connection broke in the middle of the conversation.
        case connectionLost
        /// The message took longer than the relay's overall timeout.
        case timedOut
        /// The sending task was cancelled; the relay may or may not have the message.
        case cancelled
        /// libcurl refused the request itself (out of memory, an option it does not support).
        case localFailure
    }

    public let kind: Kind
    /// The relay's reply code (451, 550...), when a reply caused the failure.
    public let replyCode: Int?
    /// The relay's reply line(s) with that code, e.g. `451 4.3.0 Try again later`.
    public let replyText: String?
    /// libcurl's result code (`CURLcode`), 0 when libcurl was not the one to fail.
    public let curlCode: Int32
    /// libcurl's error buffer, e.g. `RCPT failed: 451` or `Failed to connect to 127.0.0.1 port 2525`.
    public let curlMessage: String

    public init(kind: Kind, replyCode: Int?, replyText: String?, curlCode: Int32, curlMessage: String) {
        self.kind = kind
        self.replyCode = replyCode
        self.replyText = replyText
        self.curlCode = curlCode
        self.curlMessage = curlMessage
    }

    /// Whether sending the same message again later may succeed (everything but a 5xx reply and a local
    /// failure).
    public var isTransient: Bool {
        switch kind {
        case .rejectedPermanently, .localFailure: return false
        case .rejectedTemporarily, .unreachable, .tlsFailed, .connectionLost, .timedOut, .cancelled: return true
        }
    }

    public var description: String {
        var text = isTransient ? "SMTP (will retry): " : "SMTP (permanent): "
        switch kind {
        case .rejectedTemporarily: text += "the relay refused for now"
        case .rejectedPermanently: text += "the relay refused"
        case .unreachable: text += "the relay cannot be reached"
        case .tlsFailed: text += "TLS with the relay failed (check its certificate and the CA file)"
        case .connectionLost: text += "the connection to the relay broke"
        case .timedOut: text += "the relay took too long"
        case .cancelled: text += "sending was cancelled"
        case .localFailure: text += "libcurl could not send"
        }
        if let replyText { text += ": \(replyText)" } else if let replyCode { text += ": reply \(replyCode)" }
        if !curlMessage.isEmpty { text += " (libcurl \(curlCode): \(curlMessage))" }
        return text
    }
}
