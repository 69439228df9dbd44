import CheckinAdmin
import CheckinCore
import Hummingbird
import WireAPI

/// `POST /v1/devices/heartbeat`: keeps the device's last report and last-seen time; answers the server's
/// time and, for each event, the minimum kiosk version and when kiosks purge its guests' personal data; with
/// the kiosk's peer key, fresh peer credentials (`PeerCredentialIssuer`).
struct HeartbeatController {
    let repository: any CheckinRepository
    let clock: any ServerClock
    let retention: PersonalDataRetention

    static let minimumInterval: Double = 10

    func addRoutes(to group: RouterGroup<ServerContext>) {
        group.post("devices/heartbeat", use: heartbeat)
    }

    @Sendable func heartbeat(_ request: Request, context: ServerContext) async throws -> Response {
        let device = try context.requireDevice()
        let report = try await request.decodeJSON(Heartbeat.self, context: context)
        if let (message, hint) = report.boundsProblem { throw APIFailure.badRequest(message, hint: hint) }
        let peerKey = try PeerCredentialIssuer.peerKey(report.peerKey)
        let now = clock.now()
        // Kept at most every 10 seconds: a kiosk reports with each sync too.
        if device.lastSeenAt.map({ now.timeIntervalSince($0) >= Self.minimumInterval || now < $0 }) ?? true {
            try await repository.recordHeartbeat(DeviceReport(report), device: device.id, at: now)
        }
        // Only the events the device was enrolled for: it learns nothing of the tenant's others.
        let enrolled = try await repository.enrolledEvents(device: device.id)
        let events = try await repository.events(tenant: device.tenant).filter { enrolled.contains($0.id) }
        // Fresh credentials with every heartbeat: they rotate, and lapse a day after the device last reached us.
        var credentials: [PeerCredentialWire]?
        var revocations: [DeviceRevocationWire]?
        if let peerKey {
            let issuer = PeerCredentialIssuer(repository: repository)
            credentials = try await issuer.issue(device: device, events: events.map(\.id), peerKey: peerKey, at: now)
            revocations = try await issuer.revocations(tenant: device.tenant, events: events.map(\.id), at: now)
        }
        let requirements = events.map {
            HeartbeatAnswer.EventRequirement(
                id: $0.id.rawValue, minimumKioskVersion: $0.minimumKioskVersion?.description,
                personalDataPurgeAt: retention.purgeDate(of: $0))
        }
        return try Response.json(
            HeartbeatAnswer(
                serverTime: clock.now(), events: requirements, peerCredentials: credentials,
                revocations: revocations?.isEmpty == false ? revocations : nil))
    }
}
