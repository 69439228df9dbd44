import PassFormat

/// Signs passes: what the issuer (never a kiosk) does.
public struct PassIssuer: Sendable {
    public let keyID: KeyID
    public let tenant: TenantID
    public let event: EventID
    let privateKey: Ed25519PrivateKey

    public init(keyID: KeyID, tenant: TenantID, event: EventID, privateKey: Ed25519PrivateKey) {
        self.keyID = keyID
        self.tenant = tenant
        self.event = event
        self.privateKey = privateKey
    }

    /// A signed pass for `guest`.
    public func issue(for guest: GuestID) throws(CryptoError) -> PassToken {
        var token = PassToken(keyID: keyID, tenant: tenant, event: event, guest: guest)
        token.signature = try privateKey.sign(token.signedMessage)
        return token
    }
}
