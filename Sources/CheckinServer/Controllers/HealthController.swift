import CheckinCore
import Hummingbird

/// `GET /healthz`: the process serves (liveness: a supervisor restarts it when this fails). `GET /readyz`: the
/// database answers and holds every schema step this server knows (readiness: a load balancer sends it
/// requests only then). Neither needs a token or tells anything but its state.
struct HealthController {
    let repository: any CheckinRepository

    func addRoutes(to router: Router<ServerContext>) {
        router.get("healthz") { _, _ in Self.text(.ok, "ok\n") }
        router.get("readyz", use: ready)
    }

    @Sendable func ready(_ request: Request, context: ServerContext) async throws -> Response {
        let status: SchemaStatus
        do {
            status = try await repository.schemaStatus()
        } catch {
            context.logger.warning("readyz: the database does not answer: \(error)")
            return Self.text(.serviceUnavailable, "not ready: the database does not answer\n")
        }
        guard status.isCurrent else {
            let detail =
                status.missing.isEmpty
                ? "the database was migrated by a newer server" : "the database's schema is not migrated"
            return Self.text(.serviceUnavailable, "not ready: \(detail)\n")
        }
        return Self.text(.ok, "ready\n")
    }

    static func text(_ status: HTTPResponse.Status, _ body: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
