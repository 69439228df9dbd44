import Foundation

/// Where the server's mail goes: an SMTP relay, how to reach it safely, and how long to wait for it.
public struct SMTPRelay: Sendable, Equatable, CustomStringConvertible {
    /// How the connection is protected.
    public enum Security: String, Sendable, Equatable {
        /// Plain SMTP upgraded with STARTTLS before anything else is sent; a relay that does not offer it is
        /// refused (libcurl's `CURLUSESSL_ALL`). Usually port 587.
        case starttls
        /// TLS from the first byte (`smtps://`). Usually port 465.
        case implicitTLS
        /// No TLS at all: allowed for a relay on loopback only (tests, a local MTA).
        case none
    }

    /// A user name and password for SMTP AUTH (LOGIN or PLAIN, as the relay offers). Never printed.
    public struct Credentials: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
        public let username: String
        public let password: String

        public init(username: String, password: String) throws(SMTPRelayError) {
            guard !username.isEmpty else { throw .invalidCredentials(reason: "the user name is empty") }
            guard !(username + password).unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" })
            else { throw .invalidCredentials(reason: "a line break or NUL in the user name or password") }
            self.username = username
            self.password = password
        }

        public var description: String { "\(username) (password hidden)" }
        public var debugDescription: String { description }
    }

    public let host: String
    public let port: Int
    public let security: Security
    public let credentials: Credentials?
    /// PEM file of the CA certificates that may sign the relay's certificate; nil: the system's CA store.
    public let caFile: String?
    /// How long connecting may take: TCP, the relay's greeting, EHLO, STARTTLS with the TLS handshake, AUTH
    /// (libcurl counts the whole SMTP connect phase, up to MAIL FROM). A relay that accepts the connection and
    /// never greets fails after this long with `.timedOut`.
    public let connectTimeout: Duration
    /// How long one whole message may take, connecting included.
    public let timeout: Duration

    /// Checks every value; each refusal says what to change.
    public init(
        host: String, port: Int, security: Security, credentials: Credentials? = nil, caFile: String? = nil,
        connectTimeout: Duration = .seconds(10), timeout: Duration = .seconds(60)
    ) throws(SMTPRelayError) {
        var bareHost = host
        if bareHost.hasPrefix("[") && bareHost.hasSuffix("]") { bareHost = String(bareHost.dropFirst().dropLast()) }
        guard Self.isHost(bareHost) else { throw .invalidHost(host) }
        guard (1...65535).contains(port) else { throw .invalidPort(port) }
        if security == .none {
            guard Self.isLoopback(bareHost) else { throw .plaintextNotLoopback(host: bareHost) }
            guard credentials == nil else { throw .credentialsNeedTLS }
        }
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) { throw .unreadableCAFile(path: caFile) }
        guard connectTimeout > .zero else { throw .invalidTimeout(name: "connect timeout") }
        guard timeout > .zero else { throw .invalidTimeout(name: "timeout") }
        self.host = bareHost
        self.port = port
        self.security = security
        self.credentials = credentials
        self.caFile = caFile
        self.connectTimeout = connectTimeout
        self.timeout = timeout
    }

    /// For logs: `smtp://relay.example:587 (STARTTLS, user mailer)`; never the password.
    public var description: String {
        let mode =
            switch security {
            case .starttls: "STARTTLS"
            case .implicitTLS: "implicit TLS"
            case .none: "no TLS"
            }
        return "\(curlURL) (\(mode)" + (credentials.map { ", user \($0.username)" } ?? "") + ")"
    }

    /// The URL libcurl connects to: `smtp://host:port` or `smtps://host:port`, an IPv6 address in brackets.
    var curlURL: String {
        let scheme = security == .implicitTLS ? "smtps" : "smtp"
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(shownHost):\(port)"
    }

    static func isLoopback(_ host: String) -> Bool {
        let lower = host.lowercased()
        if lower == "localhost" || lower == "::1" { return true }
        let octets = lower.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    private static func isHost(_ host: String) -> Bool {
        !host.isEmpty && host.utf8.count <= 253
            && host.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || ".-:".utf8.contains(byte)
            }
    }
}
