import CheckinAdmin
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
