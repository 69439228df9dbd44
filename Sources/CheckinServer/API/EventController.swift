import CheckinAdmin
import CheckinCore
import Hummingbird
import WireAPI

/// `GET /v1/events/{eventId}`: the event as a kiosk needs it.
struct EventController {
    let scope: TenantScope
    let clock: any ServerClock

    func addRoutes(to group: RouterGroup<ServerContext>) {
        group.get("events/:eventId", use: show)
    }

    @Sendable func show(_ request: Request, context: ServerContext) async throws -> Response {
        let event = try await scope.event(
            context.parameters.get("eventId"), for: context.requireDevice(), request: request)
        return try Response.json(EventAnswer(event: EventInfo(event), serverTime: clock.now()))
    }
}
