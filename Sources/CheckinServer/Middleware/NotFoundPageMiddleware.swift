import Hummingbird

/// A page that does not exist, outside the API, answers the site's own "Not found" page with a way back,
/// not the browser's bare 404. The API (`/v1`) keeps its plain answers.
struct NotFoundPageMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let pages: WebPages

    func handle(
        _ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && !Self.isAPI(request.uri.path) {
            return pages.html("not-found", [String: String](), status: .notFound)
        }
    }

    static func isAPI(_ path: String) -> Bool { path == "/v1" || path.hasPrefix("/v1/") }
}
