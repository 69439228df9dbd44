import PassFormat

/// An organizer's account. Everything else (events, guests, devices) belongs to exactly one tenant.
public struct Tenant: Equatable, Sendable {
    public var id: TenantID
    public var name: String

    public init(id: TenantID, name: String) {
        self.id = id
        self.name = name
    }
}
