import Foundation
import PassFormat

/// One line of the audit log: who did what, when.
public struct AuditEntry: Equatable, Sendable {
    public var at: Date
    public var tenant: TenantID?
    public var device: String?
    /// A short machine word: `enrolled`, `cross_tenant`, `not_found`, `guest_cancelled`, `guests_imported`...
    public var action: String
    public var detail: String

    public init(at: Date, tenant: TenantID?, device: String?, action: String, detail: String) {
        self.at = at
        self.tenant = tenant
        self.device = device
        self.action = action
        self.detail = detail
    }
}
