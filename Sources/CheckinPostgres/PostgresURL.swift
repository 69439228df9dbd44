import Foundation
import NIOSSL
import PostgresNIO

extension PostgresClient.Configuration {
    /// A configuration from a URL such as `postgres://user:password@host:5432/database` (`postgresql://` too),
    /// with the TLS defaults of `init(postgresURL:password:caFile:)`. Returns nil for anything else.
    public init?(url text: String) {
        guard let configuration = try? Self(postgresURL: text) else { return nil }
        self = configuration
    }

    /// A configuration from a URL (`postgres://user[:password]@host[:5432]/database[?sslmode=...&sslrootcert=...]`).
    ///
    /// - `password`: from a file or the environment, for a URL without one (a password given twice is refused).
    /// - `caFile`: PEM CA certificates to verify the server with (`sslrootcert=` in the URL says the same).
    ///
    /// `sslmode` means what it means to libpq: `disable` (no TLS), `prefer` (TLS if the server offers it,
    /// certificate not checked), `require` (TLS, certificate not checked; with a CA file it is `verify-ca`),
    /// `verify-ca` (the certificate must chain to the CA), `verify-full` (and name the host). Without
    /// `sslmode`, a loopback host (127.0.0.0/8, ::1, localhost) gets `prefer`, any other `verify-full`: against
    /// the CA file if given, else the system's CAs.
    public init(postgresURL text: String, password: String? = nil, caFile: String? = nil) throws(PostgresURLError) {
        guard let url = URLComponents(string: text), url.scheme == "postgres" || url.scheme == "postgresql" else {
            throw .notAURL
        }
        guard let host = url.host, !host.isEmpty else { throw .noHost }
        guard let user = url.user, !user.isEmpty else { throw .noUser }
        if url.password != nil, password != nil { throw .passwordTwice }
        let query = url.queryItems ?? []
        let rootCertificate = query.first { $0.name == "sslrootcert" }?.value
        if caFile != nil, rootCertificate != nil { throw .caFileTwice }
        let ca = caFile ?? rootCertificate
        if let ca, !FileManager.default.isReadableFile(atPath: ca) { throw .unreadableCAFile(ca) }
        let tls: TLS
        switch try Self.sslMode(url: text, caFile: caFile) {
        case "disable": tls = .disable
        case "prefer": tls = .prefer(Self.tlsConfiguration(.none, ca: nil))
        case "require": tls = .require(Self.tlsConfiguration(.none, ca: nil))
        case "verify-ca": tls = .require(Self.tlsConfiguration(.noHostnameVerification, ca: ca))
        default: tls = .require(Self.tlsConfiguration(.fullVerification, ca: ca))
        }
        let database = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        self.init(
            host: host, port: url.port ?? 5432, username: user, password: url.password ?? password,
            database: database.isEmpty ? nil : database, tls: tls)
    }

    /// The `sslmode` the URL gets: its own, else `prefer` on a loopback host and `verify-full` on any other;
    /// `require` with a CA file is `verify-ca`, as in libpq.
    public static func sslMode(url text: String, caFile: String? = nil) throws(PostgresURLError) -> String {
        guard let url = URLComponents(string: text), let host = url.host else { throw .notAURL }
        let query = url.queryItems ?? []
        let ca = caFile ?? query.first { $0.name == "sslrootcert" }?.value
        let mode = query.first { $0.name == "sslmode" }?.value ?? (isLoopback(host) ? "prefer" : "verify-full")
        switch mode {
        case "disable", "verify-ca", "verify-full": return mode
        case "allow", "prefer": return "prefer"
        case "require": return ca == nil ? "require" : "verify-ca"
        default: throw .unknownSSLMode(mode)
        }
    }

    static func tlsConfiguration(_ verification: CertificateVerification, ca: String?) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = verification
        if let ca { configuration.trustRoots = .file(ca) }
        return configuration
    }

    /// Whether `host` is this machine: TLS to it protects nothing from anyone who cannot already read the
    /// server's memory.
    public static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        return bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
    }

    /// Whether the URL carries a password (which the command line shows to every user in `ps`).
    public static func hasPassword(_ text: String) -> Bool { URLComponents(string: text)?.password != nil }
}

/// Why a PostgreSQL URL or its options cannot be used; each says what to give instead.
public enum PostgresURLError: Error, Equatable, Sendable, CustomStringConvertible {
    case notAURL
    case noHost
    case noUser
    case passwordTwice
    case caFileTwice
    case unreadableCAFile(String)
    case unknownSSLMode(String)

    public var description: String {
        switch self {
        case .notAURL: "it is not a URL such as postgres://checkin@db.internal:5432/checkin"
        case .noHost: "it names no host: postgres://checkin@db.internal:5432/checkin"
        case .noUser: "it names no user: postgres://checkin@db.internal:5432/checkin"
        case .passwordTwice:
            "the password is given twice: leave it out of the URL and keep it in --postgres-password-file"
        case .caFileTwice: "the CA file is given twice: use --postgres-ca-file or sslrootcert=, not both"
        case .unreadableCAFile(let path): "the CA file \(path) cannot be read"
        case .unknownSSLMode(let mode):
            "sslmode=\(mode) is not one of disable, prefer, require, verify-ca, verify-full"
        }
    }
}
