import CheckinAdmin
import CheckinCore
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import ServiceLifecycle

/// The check-in server: configuration, storage and clock in, an application (a service) out. With a
/// certificate and key in the configuration it speaks HTTPS only. `onListening` gets the port it listens on
/// (the one the system chose for port 0). `services` run beside the HTTP server in the application's own
/// service group, and stop with it: the database client (PostgreSQL) and the background workers, on every store
/// the same way. The schema must be up to date before (`checkin-server serve` migrates first).
public func buildApplication(
    configuration: ServerConfiguration, repository: any CheckinRepository, clock: any ServerClock = SystemServerClock(),
    issuance: PassIssuanceSteps? = nil, services: [any Service] = [], logger: Logger = Logger(label: "checkin-server"),
    onListening: @escaping @Sendable (Int) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    let running: @Sendable (any Channel) async -> Void = { channel in
        await onListening(channel.localAddress?.port ?? configuration.port)
    }
    let limits = configuration.limits
    // The pages' e-mails (password-reset links), sent beside the server and drained at a graceful stop.
    let outbox = issuance?.mailer.map { MailOutbox(mailer: $0, logger: logger) }
    let services = services + (outbox.map { [$0] } ?? [])
    let router = buildRouter(
        repository: repository, clock: clock, issuance: issuance, outbox: outbox, limits: limits,
        retention: configuration.retention, metrics: configuration.metrics)
    // At most `maximumConnections` served at once (Hummingbird stops accepting until one closes).
    let address = ApplicationConfiguration(
        address: .hostname(configuration.host, port: configuration.port), serverName: "checkin-server",
        availableConnectionsDelegate: MaximumAvailableConnections(limits.maximumConnections, logger: logger))
    // Each connection: at most so many from one address, a deadline for each request's header and a pace for its
    // body, the idle timeout, closed after a refused body.
    let perAddress = ConnectionsPerAddress(
        limit: limits.maximumConnectionsPerAddress, exempt: limits.trustedProxies, logger: logger)
    let http1 = HTTPServerBuilder.http1(
        configuration: .init(
            additionalChannelHandlers: [perAddress.handler(), RequestEdgeHandler(limits: limits)],
            idleTimeout: limits.idleTimeout))
    switch (configuration.tlsCertificatePath, configuration.tlsKeyPath) {
    case (nil, nil):
        return Application(
            router: router, server: http1, configuration: address, services: services, onServerRunning: running,
            logger: logger)
    case (let certificate?, let key?):
        let tls = try tlsConfiguration(certificate: certificate, key: key)
        return Application(
            router: router, server: try .tls(http1, tlsConfiguration: tls), configuration: address,
            services: services, onServerRunning: running, logger: logger)
    default:
        throw ServerConfiguration.Failure("give both the TLS certificate and its key, or neither")
    }
}

/// The server's TLS settings from a PEM certificate chain and a PEM private key.
func tlsConfiguration(certificate: String, key: String) throws -> TLSConfiguration {
    let chain: [NIOSSLCertificate]
    let privateKey: NIOSSLPrivateKey
    do {
        chain = try NIOSSLCertificate.fromPEMFile(certificate)
    } catch {
        throw ServerConfiguration.Failure("cannot read the TLS certificate \(certificate) (PEM expected): \(error)")
    }
    do {
        privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
    } catch {
        throw ServerConfiguration.Failure("cannot read the TLS key \(key) (PEM, unencrypted, expected): \(error)")
    }
    guard !chain.isEmpty else { throw ServerConfiguration.Failure("no certificate in \(certificate)") }
    return TLSConfiguration.makeServerConfiguration(
        certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
}

/// The routes, one controller per resource; the organizer's pages (`WebController`) outside `/v1`.
public func buildRouter(
    repository: any CheckinRepository, clock: any ServerClock, issuance: PassIssuanceSteps? = nil,
    outbox: MailOutbox? = nil, limits: EdgeLimits = EdgeLimits(),
    retention: PersonalDataRetention = PersonalDataRetention(), metrics: ServerMetrics? = nil
) -> Router<ServerContext> {
    let router = Router(context: ServerContext.self)
    if let metrics { router.add(middleware: RequestMetricsMiddleware(metrics: metrics)) }
    // First: the route's body limit holds before any route or authenticator reads a byte.
    router.add(middleware: BodyLimitMiddleware(limits: limits))
    router.add(middleware: NotFoundPageMiddleware(pages: WebPages(timeZone: issuance?.timeZone ?? .current)))
    let scope = TenantScope(repository: repository, clock: clock)
    HealthController(repository: repository).addRoutes(to: router)
    if let metrics { MetricsController(metrics: metrics, repository: repository, clock: clock).addRoutes(to: router) }
    EnrolmentController(repository: repository, clock: clock).addRoutes(to: router)
    let device = router.group("v1").add(
        middleware: DeviceAuthenticator(repository: repository, clock: clock, limits: limits))
    EventController(scope: scope, clock: clock).addRoutes(to: device)
    RosterController(repository: repository, scope: scope, clock: clock).addRoutes(to: device)
    CheckInController(repository: repository, scope: scope, clock: clock, metrics: metrics).addRoutes(to: device)
    HeartbeatController(repository: repository, clock: clock, retention: retention).addRoutes(to: device)
    let admin = router.group("v1/admin").add(middleware: AdminAuthenticator(repository: repository))
    AdminController(admin: CheckinAdmin(repository: repository, clock: clock)).addRoutes(to: admin)
    GuestWebhookController(repository: repository, clock: clock, limits: limits).addRoutes(to: router)
    // Reset links need a relay (the issuance's) and the outbox that sends through it.
    let resetMail = issuance.flatMap { steps in outbox.map { PasswordResetMail(outbox: $0, address: steps.address) } }
    WebController(
        repository: repository, clock: clock, timeZone: issuance?.timeZone ?? .current, limits: limits,
        resetMail: resetMail, retention: retention
    ).addRoutes(to: router)
    PassPageController(
        repository: repository, pages: WebPages(timeZone: issuance?.timeZone ?? .current), steps: issuance
    )
    .addRoutes(to: router)
    return router
}
