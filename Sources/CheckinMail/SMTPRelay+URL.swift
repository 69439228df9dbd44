import Foundation

extension SMTPRelay {
    /// Reads the relay from the server's configuration: `smtp://[user@]host[:port]` (STARTTLS required, port
    /// 587 by default), `smtps://[user@]host[:port]` (implicit TLS, 465) or `smtp+plain://host[:port]` (no
    /// TLS, loopback only, 25).
    ///
    /// The password never goes in the URL (it would show in process lists and logs): a URL holding one is
    /// refused; pass it as `password` (read from a secret file). A user name without a password, or a password
    /// without a user name, is refused too.
    public init(
        url text: String, password: String? = nil, caFile: String? = nil, connectTimeout: Duration = .seconds(10),
        timeout: Duration = .seconds(60)
    ) throws(SMTPRelayError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw .invalidURL(text, reason: "not a URL")
        }
        let security: Security
        let defaultPort: Int
        switch scheme {
        case "smtp": (security, defaultPort) = (.starttls, 587)
        case "smtps": (security, defaultPort) = (.implicitTLS, 465)
        case "smtp+plain": (security, defaultPort) = (.none, 25)
        default: throw .invalidURL(text, reason: "unknown scheme \"\(scheme)\"")
        }
        guard components.password == nil else {
            throw .invalidURL(text, reason: "a password in the URL; give it from a secret file instead")
        }
        guard let host = components.host, !host.isEmpty else { throw .invalidURL(text, reason: "no host") }
        guard components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil
        else { throw .invalidURL(text, reason: "a path, query or fragment, which a relay URL does not have") }
        var credentials: Credentials?
        switch (components.user, password) {
        case (nil, nil): credentials = nil
        case (let user?, let password?): credentials = try Credentials(username: user, password: password)
        case (nil, _?): throw .invalidCredentials(reason: "a password but no user name in the URL")
        case (_?, nil): throw .invalidCredentials(reason: "a user name in the URL but no password")
        }
        try self.init(
            host: host, port: components.port ?? defaultPort, security: security, credentials: credentials,
            caFile: caFile, connectTimeout: connectTimeout, timeout: timeout)
    }
}
