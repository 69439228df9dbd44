import CheckinAdmin
import CheckinCore
import Hummingbird
import WireAPI

/// `POST /v1/enrolments/redeem`: a kiosk redeems a one-time code and gets its device token (shown once).
struct EnrolmentController {
    let repository: any CheckinRepository
    let clock: any ServerClock

    func addRoutes(to router: Router<ServerContext>) {
        router.post("v1/enrolments/redeem", use: redeem)
    }

    @Sendable func redeem(_ request: Request, context: ServerContext) async throws -> Response {
        let body = try await request.decodeJSON(EnrolmentRequest.self, context: context)
        if let problem = body.boundsProblem { throw APIFailure.badRequest(problem) }
        // Checked before the code is spent: a kiosk with a bad key can try again with the same code.
        let peerKey = try PeerCredentialIssuer.peerKey(body.peerKey)
        let token = Secrets.newDeviceToken()
        let now = clock.now()
        let device: Device
        do {
            device = try await repository.redeemEnrolment(
                Enrolling(
                    codeHash: Secrets.hash(enrolmentCode: body.code), newDeviceId: Secrets.newDeviceId(),
                    tokenHash: Secrets.hash(token: token), queueEpoch: Secrets.newQueueEpoch(), door: body.door,
                    kioskVersion: body.kioskVersion, nonceHash: body.nonce.map(Secrets.hash(token:)),
                    replacesTokenHash: body.replacesToken.map(Secrets.hash(token:))), at: now)
        } catch RepositoryError.notFound {
            throw APIFailure.notFound
        } catch RepositoryError.codeUsed {
            throw APIFailure(
                .gone,
                APIError(
                    code: "code_used", message: "this enrolment code was already used",
                    hint: "ask the organizer for a new code"))
        } catch RepositoryError.codeExpired {
            throw APIFailure(
                .gone,
                APIError(
                    code: "code_expired", message: "this enrolment code has expired",
                    hint: "ask the organizer for a new code"))
        }
        try await repository.appendAudit(
            AuditEntry(
                at: now, tenant: device.tenant, device: device.id, action: "enrolled",
                detail: "door '\(device.door)', kiosk \(device.kioskVersion)"))
        // Only the event the code was made for: the token reaches no other (TenantScope).
        let enrolled = try await repository.enrolledEvents(device: device.id)
        let events = try await repository.events(tenant: device.tenant).filter { enrolled.contains($0.id) }
        var credentials: [PeerCredentialWire]?
        if let peerKey {
            credentials = try await PeerCredentialIssuer(repository: repository).issue(
                device: device, events: events.map(\.id), peerKey: peerKey, at: now)
        }
        return try Response.json(
            Enrolment(
                deviceId: device.id, token: token, tenantId: device.tenant.rawValue, events: events.map(EventInfo.init),
                queueEpoch: device.queueEpoch, serverTime: clock.now(), peerCredentials: credentials))
    }
}
