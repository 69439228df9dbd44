import CheckinAdmin
import CheckinCore
import Foundation
import Hummingbird

/// Finds the device of the request's `Authorization: Bearer <token>` by the token's SHA-256; no token, an
/// unknown one or a revoked one is `401`.
struct DeviceAuthenticator: RouterMiddleware {
    let repository: any CheckinRepository
    let clock: any ServerClock
    let limits: EdgeLimits

    func handle(
        _ request: Request, context: ServerContext,
        next: (Request, ServerContext) async throws -> Response
    ) async throws -> Response {
        guard let token = request.bearerToken else { throw APIFailure.unauthorized }
        guard let device = try await repository.device(tokenHash: Secrets.hash(token: token)) else {
            throw APIFailure.unauthorized
        }
        if device.revoked {
            // A stolen token's holder may go on sending it: at most a few rows a minute of one device.
            try await ThrottledAudit(repository: repository, clock: clock, limits: limits).append(
                AuditEntry(
                    at: clock.now(), tenant: device.tenant, device: device.id, action: "revoked_token",
                    detail: AuditText.clipped("\(request.method) \(request.uri.path)")),
                key: "device:" + device.id)
            throw APIFailure.unauthorized
        }
        var context = context
        context.device = device
        return try await next(request, context)
    }
}

/// Lets a request through only with the admin token (`checkin-server admin-token` makes one).
struct AdminAuthenticator: RouterMiddleware {
    let repository: any CheckinRepository

    func handle(
        _ request: Request, context: ServerContext,
        next: (Request, ServerContext) async throws -> Response
    ) async throws -> Response {
        guard let token = request.bearerToken, let stored = try await repository.adminTokenHash(),
            Secrets.hash(token: token) == stored
        else { throw APIFailure.unauthorized }
        return try await next(request, context)
    }
}

extension Request {
    /// The token of `Authorization: Bearer <token>`.
    var bearerToken: String? {
        guard let value = headers[.authorization] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
