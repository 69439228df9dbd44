import Hummingbird

/// Runs before every route, authentication included: sets the route's body limit (`EdgeLimits.bodyLimit`) in
/// the context, where every handler's `collect(upTo:)` reads it, and answers 413 at once to a request whose
/// `Content-Length` is over it, without reading a byte of the body. `RequestEdgeHandler` then closes the
/// connection, so what the client still sends is not read either.
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let limits: EdgeLimits

    func handle(
        _ request: Request, context: ServerContext,
        next: (Request, ServerContext) async throws -> Response
    ) async throws -> Response {
        let limit = limits.bodyLimit(method: request.method.rawValue, path: request.uri.path)
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit {
            throw Self.tooLarge(limit)
        }
        var context = context
        context.bodyLimit = limit
        return try await next(request, context)
    }

    static func tooLarge(_ limit: Int) -> HTTPError {
        HTTPError(
            .contentTooLarge, headers: [.connection: "close"],
            message: "the body is larger than this route takes (\(limit) bytes)")
    }
}
