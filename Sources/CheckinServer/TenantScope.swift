import CheckinCore
import Foundation
import Hummingbird
import KioskCore

/// Authorises a device's request for an event: another tenant's event answers exactly like one that does
/// not exist (`404`, `APIError.notFound`), and both are written to the audit log, so both take the same
/// path (one read, one write).
struct TenantScope: Sendable {
    let repository: any CheckinRepository
    let clock: any ServerClock

    func event(_ rawId: String?, for device: Device, request: Request) async throws -> Event {
        var event: Event?
        if let rawId, let id = UInt32(rawId), id > 0 { event = try await repository.event(EventID(id)) }
        guard let event, event.tenant == device.tenant else {
            let action = event == nil ? "not_found" : "cross_tenant"
            try await repository.appendAudit(
                AuditEntry(
                    at: clock.now(), tenant: device.tenant, device: device.id, action: action,
                    detail: "\(request.method) \(request.uri.path)"
                        + (event.map { " (event of tenant \($0.tenant))" } ?? "")))
            throw APIFailure.notFound
        }
        return event
    }
}
