import Foundation
import PassFormat

/// A tenant's pass-signing key, held by the server only. The newest key signs; older ones stay so that the
/// passes they signed keep verifying (kiosks trust every exported key).
public struct SigningKey: Equatable, Sendable {
    /// Unique across the server, from `firstKeyID` up (lower ids are left to `kioskctl keygen` issuers).
    public var keyID: KeyID
    public var tenant: TenantID
    public var privateKeyPEM: String
    /// The raw 32-byte Ed25519 public key.
    public var publicKey: [UInt8]
    public var createdAt: Date

    public static let firstKeyID: UInt16 = 1000

    public init(keyID: KeyID, tenant: TenantID, privateKeyPEM: String, publicKey: [UInt8], createdAt: Date) {
        self.keyID = keyID
        self.tenant = tenant
        self.privateKeyPEM = privateKeyPEM
        self.publicKey = publicKey
        self.createdAt = createdAt
    }
}

/// A key pair made by the server, before the repository gives it its id.
public struct NewSigningKey: Equatable, Sendable {
    public var privateKeyPEM: String
    public var publicKey: [UInt8]

    public init(privateKeyPEM: String, publicKey: [UInt8]) {
        self.privateKeyPEM = privateKeyPEM
        self.publicKey = publicKey
    }
}
