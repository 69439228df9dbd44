/// Why a message could not be written: a value that would break the message's syntax or let a caller's text
/// add headers of its own. Nothing is sent when one of these is thrown.
public enum MailError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A header value holds a line break (CR or LF) or another control character: written as is it would end
    /// the header and start another one (header injection).
    case controlCharacter(field: String)
    /// An e-mail address that is not `local@domain` in printable ASCII without spaces, brackets or quotes.
    case invalidAddress(String)
    /// A Message-ID or Content-ID that is not `left@right` in printable ASCII without spaces or brackets.
    case invalidIdentifier(field: String, value: String)
    /// An inline image's file name that is not printable ASCII without quotes, backslashes or slashes.
    case invalidFileName(String)
    /// A media type that is not `type/subtype` in letters, digits and `.+-`.
    case invalidMediaType(String)
    /// A message without any recipient.
    case noRecipients

    public var description: String {
        switch self {
        case .controlCharacter(let field):
            return "the \(field) header holds a line break or another control character, refused (header injection)"
        case .invalidAddress(let address):
            return "\"\(address)\" is not an e-mail address this mailer sends to (local@domain, printable ASCII)"
        case .invalidIdentifier(let field, let value):
            return "\"\(value)\" is not a valid \(field) (left@right, printable ASCII, no spaces or angle brackets)"
        case .invalidFileName(let name):
            return "\"\(name)\" is not a valid attachment file name (printable ASCII, no quotes, slashes)"
        case .invalidMediaType(let type):
            return "\"\(type)\" is not a media type (type/subtype)"
        case .noRecipients:
            return "the message has no recipient"
        }
    }
}
