import CheckinCore
import Foundation
import HTTPTypes
import Hummingbird

/// `GET /metrics`: the Prometheus text of `ServerMetrics`, for a scraper with the metrics token (Bearer); `401`
/// without it. A server started without a token has no such route (`404`). The devices by state are counted
/// at each scrape, by the sync monitor's rule (`DeviceHealth`), so they are never older than the scrape.
struct MetricsController {
    let metrics: ServerMetrics
    let repository: any CheckinRepository
    let clock: any ServerClock

    func addRoutes(to router: Router<ServerContext>) {
        router.get("metrics") { request, _ in
            guard let header = request.headers[.authorization], header.hasPrefix("Bearer "),
                metrics.admits(String(header.dropFirst("Bearer ".count)))
            else {
                return Response(
                    status: .unauthorized,
                    headers: [.wwwAuthenticate: "Bearer realm=\"metrics\"", .contentType: "text/plain; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(string: "the metrics need the metrics token (Bearer)\n")))
            }
            metrics.devices(try await repository.allDevices(), now: clock.now())
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: metrics.emit())))
        }
    }
}

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
