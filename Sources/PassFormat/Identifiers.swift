/// A tenant (the organizer's account). Assigned by the check-in server; not secret.
public struct TenantID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }
}

/// An event of a tenant. Assigned by the check-in server; not secret.
public struct EventID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }
}

/// The id of a signing key, so kiosks can trust several keys at once while keys rotate.
public typealias KeyID = UInt16
