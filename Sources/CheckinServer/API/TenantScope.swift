import CheckinAdmin
import CheckinCore
import Foundation
import Hummingbird
import PassFormat

/// Authorises a device's request for an event: only the event its token was enrolled for. Another event of
/// its tenant, another tenant's event and a missing one all answer exactly alike (`404`, `APIError.notFound`),
/// and each is written to the audit log, so all take the same path (two reads, one write).
struct TenantScope: Sendable {
    let repository: any CheckinRepository
    let clock: any ServerClock

    func event(_ rawId: String?, for device: Device, request: Request) async throws -> Event {
        var event: Event?
        if let rawId, let id = UInt32(rawId), id > 0 { event = try await repository.event(EventID(id)) }
        let enrolled = try await repository.enrolledEvents(device: device.id)
        guard let event, event.tenant == device.tenant, enrolled.contains(event.id) else {
            let action: String
            let detail: String
            switch event {
            case nil:
                action = "not_found"
                detail = ""
            case let event? where event.tenant != device.tenant:
                action = "cross_tenant"
                detail = " (event of tenant \(event.tenant))"
            case let event?:
                action = "other_event"
                detail =
                    " (event \(event.id) of its tenant; enrolled for "
                    + (enrolled.isEmpty ? "none" : enrolled.map(\.description).sorted().joined(separator: ", ")) + ")"
            }
            try await repository.appendAudit(
                AuditEntry(
                    at: clock.now(), tenant: device.tenant, device: device.id, action: action,
                    detail: "\(request.method) \(request.uri.path)" + detail))
            throw APIFailure.notFound
        }
        return event
    }
}
