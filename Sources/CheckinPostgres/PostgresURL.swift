import Foundation
import PostgresNIO

extension PostgresClient.Configuration {
    /// A configuration from a URL such as `postgres://user:password@host:5432/database` (`postgresql://` too;
    /// `?sslmode=disable` turns TLS off, `require` demands it; otherwise TLS is used if the server offers it).
    /// Returns nil for anything else.
    public init?(url text: String) {
        guard let url = URLComponents(string: text), url.scheme == "postgres" || url.scheme == "postgresql",
            let host = url.host, !host.isEmpty, let user = url.user, !user.isEmpty
        else { return nil }
        let database = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        var tls = PostgresClient.Configuration.TLS.prefer(.makeClientConfiguration())
        switch url.queryItems?.first(where: { $0.name == "sslmode" })?.value {
        case "disable": tls = .disable
        case "require": tls = .require(.makeClientConfiguration())
        default: break
        }
        self.init(
            host: host, port: url.port ?? 5432, username: user,
            password: url.password,
            database: database.isEmpty ? nil : database, tls: tls)
    }
}
