import Hummingbird

/// Finds the organizer of the request's session cookie before any of their pages runs; without a live session
/// the page is not run: a page sends the browser to sign in, a live part answers 401 (the page keeps what it
/// shows).
struct OrganizerSessionMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    enum SignedOut: Sendable {
        case signInPage
        case unauthorized
    }

    let sessions: OrganizerSessions
    let signedOut: SignedOut

    func handle(
        _ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response
    ) async throws -> Response {
        guard let signed = try await sessions.current(request) else {
            switch signedOut {
            case .signInPage: return WebController.redirect("/sign-in")
            case .unauthorized: return WebController.signedOut()
            }
        }
        var context = context
        context.organizer = signed
        return try await next(request, context)
    }
}

/// Finds the event named in the path among the organizer's; one that does not exist or is another tenant's
/// answers the same 404, audited, and the page is not run.
struct EventOwnerMiddleware: RouterMiddleware {
    typealias Context = OrganizerContext

    let web: WebController

    func handle(
        _ request: Request, context: OrganizerContext, next: (Request, OrganizerContext) async throws -> Response
    ) async throws -> Response {
        guard let event = try await web.event(context, request) else { return web.notFound(context.signed) }
        var context = context
        context.event = event
        return try await next(request, context)
    }
}
