import ArgumentParser
import CheckinServer
import NIOCore

/// `serve`'s options for the limits at the server's edges (`EdgeLimits`; docs/SERVER.md: "Limits at the edges").
struct EdgeOptions: ParsableArguments {
    static let defaults = EdgeLimits()

    @Option(
        name: .customLong("unauthenticated-body-limit"),
        help: "Largest body, in bytes, of a route without a credential (enrolment, sign-in); larger gets 413.")
    var unauthenticatedBody = defaults.unauthenticatedBody
    @Option(
        name: .customLong("api-body-limit"), help: "Largest body, in bytes, of every other route but the CSV imports.")
    var apiBody = defaults.apiBody
    @Option(
        name: .customLong("import-body-limit"),
        help: "Largest CSV import, in bytes (admin API and organizer page, both signed in before the body is read).")
    var importBody = defaults.importBody
    @Option(
        name: .customLong("header-timeout"),
        help: "Seconds from a request's first byte until its header must be complete; a slower client is cut off.")
    var headerTimeout = 10
    @Option(
        name: .customLong("idle-timeout"),
        help: "Seconds a connection may stay open with no request in progress (before the first, between two).")
    var idleTimeout = 60
    @Option(
        name: .customLong("max-connections"),
        help: "Connections served at once; more wait to be accepted until one closes.")
    var maximumConnections = defaults.maximumConnections
    @Option(
        name: .customLong("max-connections-per-address"),
        help: "Connections open at once from one client address (a trusted proxy's not counted); more are closed.")
    var maximumConnectionsPerAddress = defaults.maximumConnectionsPerAddress
    @Option(
        name: .customLong("body-progress-timeout"),
        help: "Seconds within which a request's body must bring 16 KiB more (or its end); a slower client is cut off.")
    var bodyProgressTimeout = 20
    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "The address of a reverse proxy whose X-Forwarded-For names the client (repeat for several).",
            discussion: "Without it, the sign-in throttle keys on the connection's address and ignores the header."))
    var trustedProxies: [String] = []
    @Option(
        name: .customLong("password-checks-waiting"),
        help: "Sign-ins waiting for a password check (bcrypt) beyond those running; more get 429.")
    var passwordChecksWaiting = defaults.passwordChecksWaiting
    @Option(
        name: .customLong("alert-deliveries"), help: "Offline alerts sent at once (a dead receiver holds one).")
    var alertDeliveries = defaults.alertDeliveriesAtOnce

    func validate() throws {
        for (name, value, range) in [
            ("--unauthenticated-body-limit", unauthenticatedBody, 256...(1 << 20)),
            ("--api-body-limit", apiBody, 1024...(64 << 20)), ("--import-body-limit", importBody, 1024...(1 << 30)),
            ("--header-timeout", headerTimeout, 1...600), ("--idle-timeout", idleTimeout, 1...3600),
            ("--max-connections", maximumConnections, 1...1_000_000),
            ("--max-connections-per-address", maximumConnectionsPerAddress, 1...1_000_000),
            ("--body-progress-timeout", bodyProgressTimeout, 1...600),
            ("--password-checks-waiting", passwordChecksWaiting, 0...10_000),
            ("--alert-deliveries", alertDeliveries, 1...256),
        ] where !range.contains(value) {
            throw ValidationError("\(name) must be from \(range.lowerBound) to \(range.upperBound) (got \(value))")
        }
        for proxy in trustedProxies where (try? SocketAddress(ipAddress: proxy, port: 0)) == nil {
            throw ValidationError("--trusted-proxy '\(proxy)' is not an IP address such as 127.0.0.1 or ::1")
        }
    }

    var limits: EdgeLimits {
        var limits = EdgeLimits()
        limits.unauthenticatedBody = unauthenticatedBody
        limits.apiBody = apiBody
        limits.importBody = importBody
        limits.requestHeaderTimeout = .seconds(Int64(headerTimeout))
        limits.idleTimeout = .seconds(Int64(idleTimeout))
        limits.maximumConnections = maximumConnections
        limits.maximumConnectionsPerAddress = maximumConnectionsPerAddress
        limits.bodyProgressTimeout = .seconds(Int64(bodyProgressTimeout))
        // As the socket reports the peer (SocketAddress.ipAddress), so that they compare equal.
        limits.trustedProxies = Set(
            trustedProxies.compactMap { try? SocketAddress(ipAddress: $0, port: 0).ipAddress })
        limits.passwordChecksWaiting = passwordChecksWaiting
        limits.alertDeliveriesAtOnce = alertDeliveries
        return limits
    }
}
