import Foundation
import PassFormat

/// The audit log and the admin token.
/// One role of `CheckinRepository`.
public protocol AuditRepository: Sendable {
    func appendAudit(_ entry: AuditEntry) async throws
    /// The latest entries first; all tenants when `tenant` is nil.
    func auditEntries(tenant: TenantID?, limit: Int) async throws -> [AuditEntry]
    /// Replaces the admin token (its SHA-256, hex).
    func setAdminTokenHash(_ hash: String, at time: Date) async throws
    func adminTokenHash() async throws -> String?
}
