import CheckinAPI
import CheckinCore
import Hummingbird

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
        try Self.checkBounds(report)
        let peerKey = try PeerCredentialIssuer.peerKey(report.peerKey)
        if let peers = report.lanPeers {
            guard peers.count <= Heartbeat.maximumLANPeers else {
                throw APIFailure.badRequest(
                    "lanPeers lists \(peers.count) devices, at most \(Heartbeat.maximumLANPeers) are accepted",
                    hint: "send the device ids of the peers with a live link only")
            }
            guard peers.allSatisfy({ (1...64).contains($0.count) }) else {
                throw APIFailure.badRequest("each device id of lanPeers must be 1 to 64 characters")
            }
        }
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

    /// What a report may hold, checked before it is kept: it is stored per device and read again on every monitor
    /// page (the roster cursor is parsed there), so each field has the size of what a kiosk sends.
    static func checkBounds(_ report: Heartbeat) throws {
        func check(_ name: String, _ text: String?, _ lengths: ClosedRange<Int>) throws {
            guard let text else { return }
            guard lengths.contains(text.utf8.count) else {
                throw APIFailure.badRequest("\(name) must be \(lengths.lowerBound) to \(lengths.upperBound) bytes")
            }
        }
        // The door in characters, as enrolment counts it.
        guard (1...64).contains(report.door.count) else {
            throw APIFailure.badRequest("door must be 1 to 64 characters")
        }
        try check("kioskVersion", report.kioskVersion, 1...64)
        try check("camera", report.camera, 0...256)
        try check("rosterCursor", report.rosterCursor, 0...4096)
        guard Self.pendingCounts.contains(report.pending) else {
            throw APIFailure.badRequest(
                "pending must be 0 to \(Self.pendingCounts.upperBound), the count of the kiosk's queued scans")
        }
    }

    /// A kiosk's queue: far more than a door scans in a year.
    static let pendingCounts = 0...100_000_000
}
