/// A relay configuration that cannot work, said so that an operator can fix it.
public enum SMTPRelayError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The URL could not be read, or its scheme is not `smtp`, `smtps` or `smtp+plain`.
    case invalidURL(String, reason: String)
    /// An empty host, or one with spaces, slashes or other characters no host name has.
    case invalidHost(String)
    /// A port outside 1...65535.
    case invalidPort(Int)
    /// `.none` (no TLS) with a host that is not loopback.
    case plaintextNotLoopback(host: String)
    /// A password without TLS would cross the network in clear.
    case credentialsNeedTLS
    /// An empty user name, or a user name or password with a line break or NUL.
    case invalidCredentials(reason: String)
    /// The CA file given does not exist or cannot be read.
    case unreadableCAFile(path: String)
    /// A timeout that is zero or negative.
    case invalidTimeout(name: String)

    public var description: String {
        switch self {
        case .invalidURL(let url, let reason):
            return "SMTP relay URL \"\(url)\": \(reason) (expected smtp://[user@]host[:port] for STARTTLS, "
                + "smtps://… for implicit TLS, smtp+plain://… for a loopback relay without TLS)"
        case .invalidHost(let host):
            return "SMTP relay host \"\(host)\" is not a host name or IP address"
        case .invalidPort(let port):
            return "SMTP relay port \(port) is not in 1...65535"
        case .plaintextNotLoopback(let host):
            return "SMTP relay \(host) without TLS: only a loopback relay (localhost, 127.0.0.1, ::1) may be used "
                + "without STARTTLS or implicit TLS"
        case .credentialsNeedTLS:
            return "SMTP relay credentials are only sent over TLS: use STARTTLS or implicit TLS"
        case .invalidCredentials(let reason):
            return "SMTP relay credentials: \(reason)"
        case .unreadableCAFile(let path):
            return "SMTP relay CA file \(path) does not exist or cannot be read"
        case .invalidTimeout(let name):
            return "SMTP relay \(name) must be more than zero"
        }
    }
}
