import CheckinCore
import Hummingbird
import Logging

/// The check-in server: configuration, storage and clock in, an application (a service) out.
public func buildApplication(
    configuration: ServerConfiguration, repository: any CheckinRepository, clock: any ServerClock = SystemServerClock(),
    logger: Logger = Logger(label: "checkin-server")
) throws -> some ApplicationProtocol {
    let router = buildRouter(repository: repository, clock: clock)
    return Application(
        router: router,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "checkin-server"),
        logger: logger)
}

/// The routes, one controller per resource.
public func buildRouter(repository: any CheckinRepository, clock: any ServerClock) -> Router<ServerContext> {
    let router = Router(context: ServerContext.self)
    let scope = TenantScope(repository: repository, clock: clock)
    EnrolmentController(repository: repository, clock: clock).addRoutes(to: router)
    let device = router.group("v1").add(middleware: DeviceAuthenticator(repository: repository, clock: clock))
    EventController(scope: scope, clock: clock).addRoutes(to: device)
    RosterController(repository: repository, scope: scope, clock: clock).addRoutes(to: device)
    CheckInController(repository: repository, scope: scope, clock: clock).addRoutes(to: device)
    HeartbeatController(repository: repository, clock: clock).addRoutes(to: device)
    let admin = router.group("v1/admin").add(middleware: AdminAuthenticator(repository: repository))
    AdminController(admin: CheckinAdmin(repository: repository, clock: clock)).addRoutes(to: admin)
    return router
}
