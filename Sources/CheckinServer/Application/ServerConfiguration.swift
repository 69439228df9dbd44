import CheckinCore

/// How the server listens, and the limits at its edges.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// PEM certificate chain and private key: when both are set the server speaks HTTPS only.
    public var tlsCertificatePath: String?
    public var tlsKeyPath: String?
    /// Body sizes, timeouts, connections, sign-in throttle, webhooks' destinations: all in one place.
    public var limits: EdgeLimits
    /// How long an event's personal data is kept after it ends; the events page says when each is purged.
    public var retention = PersonalDataRetention()
    /// `GET /metrics` for a scraper with its token; nil: no such route.
    public var metrics: ServerMetrics?

    /// Offline-alert webhooks may go to plain http URLs (a receiver on the venue's own network); otherwise
    /// https only. Kept in `limits`.
    public var allowPlainHTTPWebhooks: Bool {
        get { limits.allowPlainHTTPWebhooks }
        set { limits.allowPlainHTTPWebhooks = newValue }
    }

    public init(
        host: String = "127.0.0.1", port: Int = 8080, tlsCertificatePath: String? = nil,
        tlsKeyPath: String? = nil, allowPlainHTTPWebhooks: Bool = false, limits: EdgeLimits = EdgeLimits()
    ) {
        self.host = host
        self.port = port
        self.tlsCertificatePath = tlsCertificatePath
        self.tlsKeyPath = tlsKeyPath
        self.limits = limits
        if allowPlainHTTPWebhooks { self.limits.allowPlainHTTPWebhooks = true }
    }

    /// A configuration that cannot work, said so that an operator can fix it.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }
}
