import Foundation
import PassFormat

/// Tenants and their events, and the personal-data purge of events long over (retention).
/// One role of `CheckinRepository`.
public protocol EventRepository: Sendable {
    func createTenant(name: String, at time: Date) async throws -> Tenant
    func tenant(_ id: TenantID) async throws -> Tenant?
    /// Throws `RepositoryError.notFound` when the tenant does not exist.
    func createEvent(_ event: NewEvent, tenant: TenantID) async throws -> Event
    func event(_ id: EventID) async throws -> Event?
    func events(tenant: TenantID) async throws -> [Event]
    /// Events that ended before `endedBefore` and whose personal data is not purged yet (`PersonalDataRetention`).
    func eventsToPurge(endedBefore: Date) async throws -> [Event]
    /// Clears the event's personal data in one transaction (guests' names, e-mail addresses, phones, notes,
    /// alerts, external references; passes' text, image and recipient; mail errors) and marks the event purged;
    /// the file system's pass images are the caller's to delete. Guest ids, check-ins and the audit stay.
    func purgePersonalData(event: EventID, at time: Date) async throws -> PersonalDataPurge
    /// When the event's personal data was purged, nil if not yet.
    func personalDataPurgedAt(event: EventID) async throws -> Date?
}
