import Foundation

/// An email the server sends: a plain-text body, an HTML body, and an image shown inline in the HTML
/// (`cid:` reference), so that mail clients that block remote images still show it.
public struct OutgoingEmail: Equatable, Sendable {
    public var to: String
    public var subject: String
    public var text: String
    public var html: String
    public var inlineImage: InlineImage?
    /// Stable across retries of the same step (`<...@...>`): a relay that got the message twice can tell.
    public var messageID: String

    public init(to: String, subject: String, text: String, html: String, inlineImage: InlineImage?, messageID: String) {
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.inlineImage = inlineImage
        self.messageID = messageID
    }
}

/// A PNG the HTML part shows as `<img src="cid:\(contentID)">`.
public struct InlineImage: Equatable, Sendable {
    public var contentID: String
    public var filename: String
    public var png: [UInt8]

    public init(contentID: String, filename: String, png: [UInt8]) {
        self.contentID = contentID
        self.filename = filename
        self.png = png
    }
}

/// Why an email was not sent: the issuance retries a transient failure and fails on a permanent one.
public enum MailFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// A 4xx answer, a relay that did not answer, a TLS handshake that failed: try again later.
    case transient(String)
    /// A 5xx answer (a refused address, a message the relay will never take): do not try again.
    case permanent(String)
    /// The server has no relay configured.
    case notConfigured

    public var description: String {
        switch self {
        case .transient(let why): "temporary mail failure: \(why)"
        case .permanent(let why): "the relay refused the message: \(why)"
        case .notConfigured: "no SMTP relay is configured (checkin-server serve --smtp-url ...)"
        }
    }
}

/// Sends email (SMTP through libcurl in the server; the tests use a real SMTP server on loopback).
public protocol Mailer: Sendable {
    /// Throws `MailFailure`.
    func send(_ email: OutgoingEmail) async throws
}
