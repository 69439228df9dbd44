import Foundation
import NIOCore

/// Every limit at the server's edges, in one place: request bodies per route, connection timeouts and count,
/// the sign-in throttle and its bcrypt queue, the audit of unauthenticated requests, and outbound webhooks.
/// `checkin-server serve` sets them from its options (docs/SERVER.md: "Limits at the edges"); tests shorten them.
public struct EdgeLimits: Sendable {
    // MARK: Request bodies

    /// Routes anyone may call without a credential: enrolment redemption, sign-in, sign-out (bytes).
    public var unauthenticatedBody = 4 * 1024
    /// The organizer system's guest webhooks (one guest per call).
    public var webhookBody = 16 * 1024
    /// Every other route: the device API, the admin API, the organizer's forms.
    public var apiBody = 64 * 1024
    /// The CSV imports (admin API and organizer page); both authenticate before reading the body.
    public var importBody = 32 * 1024 * 1024

    // MARK: Connections

    /// From a request's first byte until its header is complete; a slower client is disconnected.
    public var requestHeaderTimeout: TimeAmount = .seconds(10)
    /// A connection with no request in progress (before the first, between two) is closed after this.
    public var idleTimeout: TimeAmount = .seconds(60)
    /// Once a request's header is in, its body must keep coming: `bodyProgressBytes` (or the rest of the body)
    /// within each `bodyProgressTimeout`, else the connection is closed. A client that sends a body a byte every
    /// few seconds (each byte restarted the idle timer) held a connection for as long as it liked.
    public var bodyProgressTimeout: TimeAmount = .seconds(20)
    public var bodyProgressBytes = 16 * 1024
    /// Connections served at once; more wait in the listen backlog until one closes.
    public var maximumConnections = 1_000
    /// Connections open at once from one client address (a trusted proxy's are not counted): beyond it a new
    /// one is closed at once, so a few clients cannot hold every connection. A venue's kiosks behind one NAT hold
    /// a connection or two each.
    public var maximumConnectionsPerAddress = 250

    // MARK: Sign-in

    /// Sign-in attempts counted within `signInWindow`, before the password is checked: per account from one
    /// client address (the lockout a guesser meets), per account from anywhere (a ceiling on guessing from many
    /// addresses, high enough that one stranger cannot lock an organizer out), and per client address. A
    /// success forgets the account's count from its client.
    public var signInAttemptsPerAccountAndClient = 5
    public var signInAttemptsPerAccount = 50
    public var signInAttemptsPerClient = 20
    public var signInWindow: TimeInterval = 15 * 60
    /// Password checks (bcrypt, about 250 ms of CPU each) run at once, and waiting beyond those; when the
    /// queue is full a sign-in is refused with 429.
    public var passwordChecksAtOnce = max(1, ProcessInfo.processInfo.activeProcessorCount)
    public var passwordChecksWaiting = 32
    /// Proxies whose `X-Forwarded-For` names the client (exact addresses, as the socket reports them).
    public var trustedProxies: Set<String> = []
    /// Audit rows written for requests without a credential (refused sign-ins), per client address and
    /// minute; beyond that they are counted, not written.
    public var unauthenticatedAuditPerMinute = 10

    // MARK: Outbound webhooks

    /// Offline-alert webhooks may go to plain http URLs (`--allow-http-webhooks`).
    public var allowPlainHTTPWebhooks = false
    /// Offline-alert webhooks may go to loopback, private, link-local or CGNAT addresses
    /// (`--allow-private-webhooks`: a receiver on the venue's own network).
    public var allowPrivateWebhooks = false
    /// Alert deliveries sent at once; a receiver that never answers holds one of them for `webhookTimeout`.
    public var alertDeliveriesAtOnce = 8

    public init() {}

    /// The largest body `method path` may send.
    public func bodyLimit(method: String, path: String) -> Int {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        switch (method, parts.count) {
        case ("POST", 3) where parts == ["v1", "enrolments", "redeem"]: return unauthenticatedBody
        case ("POST", 1) where parts == ["sign-in"] || parts == ["sign-out"]: return unauthenticatedBody
        case ("POST", 5) where parts[0] == "v1" && parts[1] == "webhooks": return webhookBody
        case ("POST", 4) where parts[0] == "events" && parts[2] == "guests" && parts[3] == "import": return importBody
        // The previewed file again, as unpadded base64url in a form field: a third larger.
        case ("POST", 5)
        where parts[0] == "events" && parts[2] == "guests" && parts[3] == "import" && parts[4] == "confirm":
            return importBody / 3 * 4 + 4096
        case ("POST", 6) where parts[0] == "v1" && parts[1] == "admin" && parts[4] == "guests" && parts[5] == "import":
            return importBody
        default: return apiBody
        }
    }
}
