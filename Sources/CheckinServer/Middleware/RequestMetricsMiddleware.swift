import CheckinCore
import Foundation
import HTTPTypes
import Hummingbird

/// Times every request for `checkin_http_request_duration_seconds`, labelled by the route it matched.
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = ContinuousClock.now
        var status = 500
        defer {
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            metrics.request(
                method: Self.methodLabel(request.method), route: context.endpointPath ?? "unmatched", status: status,
                seconds: seconds)
        }
        do {
            let response = try await next(request, context)
            status = response.status.code
            return response
        } catch let error as HTTPResponseError {
            status = error.status.code
            throw error
        }
    }

    /// The method as a label: any client may send any token as a method, and each would make a series of its own
    /// in the server's memory, so the methods HTTP defines are kept and every other is "other".
    static func methodLabel(_ method: HTTPRequest.Method) -> String {
        let known: Set<HTTPRequest.Method> = [.get, .head, .post, .put, .delete, .patch, .options, .connect, .trace]
        return known.contains(method) ? method.rawValue : "other"
    }
}
