import Foundation
import PassFormat

/// The server's storage, one protocol per role (this folder): SQLite (`CheckinSQLite`) and PostgreSQL
/// (`CheckinPostgres`) implement every role, and the same test suite runs against each. Code that needs one role
/// takes that protocol; a new storage method goes into its role's protocol and into both stores.
///
/// Tenancy is the caller's business: the repository answers by id, the server checks the tenant and answers
/// 404 for another tenant's things. Every method that writes is one transaction.
public protocol CheckinRepository:
    EventRepository,
    GuestRepository,
    RosterRepository,
    DeviceRepository,
    ListRepository,
    ScanRepository,
    IssuanceRepository,
    WebhookRepository,
    OfflineAlertRepository,
    OrganizerRepository,
    RateLimitRepository,
    AuditRepository,
    ReadinessRepository
{}

extension ScanRepository {
    /// Each item in its own transaction, in order.
    public func apply(_ scans: [Scan], event: EventID, device: Device, receivedAt: @Sendable () -> Date)
        async throws -> [ScanOutcome]
    {
        var outcomes: [ScanOutcome] = []
        for scan in scans {
            outcomes.append(try await apply(scan, event: event, device: device, receivedAt: receivedAt()))
        }
        return outcomes
    }
}
