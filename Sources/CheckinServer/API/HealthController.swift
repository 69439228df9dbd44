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
            // The answer says what; the log says what to do (the answer goes to anyone who asks).
            if status.missing.isEmpty {
                context.logger.warning(
                    "readyz: the database has schema steps this server does not know (\(status.unknown.joined(separator: ", "))): a newer checkin-server migrated it; run that version"
                )
                return Self.text(.serviceUnavailable, "not ready: the database was migrated by a newer server\n")
            }
            context.logger.warning(
                "readyz: the database lacks schema steps \(status.missing.joined(separator: ", ")): start this version's checkin-server serve, which migrates it first"
            )
            return Self.text(.serviceUnavailable, "not ready: the database's schema is not migrated\n")
        }
        return Self.text(.ok, "ready\n")
    }

    static func text(_ status: HTTPResponse.Status, _ body: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
