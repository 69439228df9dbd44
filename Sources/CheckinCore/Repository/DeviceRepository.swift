import Foundation
import PassFormat

/// Enrolment codes, the devices they enrolled, revocations and heartbeats.
/// One role of `CheckinRepository`.
public protocol DeviceRepository: Sendable {
    /// Stores a new enrolment code (its hash only).
    func createEnrolmentCode(_ code: EnrolmentCode) async throws
    /// Redeems a code once: a new device of the code's tenant, or the code's `replacesDevice` with a new
    /// token and queue epoch (its old token stops working). Throws `notFound`, `codeUsed` or `codeExpired`.
    func redeemEnrolment(_ enrolling: Enrolling, at time: Date) async throws -> Device
    /// The device whose token has this SHA-256 (hex), revoked or not; nil for an unknown token.
    func device(tokenHash: String) async throws -> Device?
    func device(id: String) async throws -> Device?
    func devices(tenant: TenantID) async throws -> [Device]
    /// Every tenant's devices (for the server's own figures: `GET /metrics` counts them by state).
    func allDevices() async throws -> [Device]
    /// The devices whose latest enrolment was with a code made for this event (a kiosk moved to another event
    /// of the tenant is that event's), each with who made that code.
    func devices(event: EventID) async throws -> [EventDevice]
    /// Throws `notFound` when the tenant has no such device.
    func revokeDevice(_ id: String, tenant: TenantID, at time: Date) async throws
    /// The events the device's token may touch: the event of the enrolment code it last redeemed (a kiosk
    /// re-enrolled for another event of the tenant leaves the first). Empty for an unknown device.
    func enrolledEvents(device: String) async throws -> Set<EventID>
    /// Keeps the device's last report and last-seen time.
    func recordHeartbeat(_ report: DeviceReport, device: String, at time: Date) async throws
}
