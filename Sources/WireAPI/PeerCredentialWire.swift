/// A peer credential on the wire (docs/SYNC.md, "Between doors"): the server's signed statement that the device
/// `deviceId`, at `door`, is enrolled for `eventId` of `tenantId` and holds the private half of `peerKey`, from
/// `notBefore` to `notAfter`. Kiosks of one event present it to each other on the venue LAN.
public struct PeerCredentialWire: Codable, Equatable, Sendable {
    public var version: Int
    /// The tenant's pass-signing key that signed it (a `trusted_key` of kiosk.conf).
    public var keyId: Int
    public var tenantId: UInt32
    public var eventId: UInt32
    public var deviceId: String
    public var door: String
    /// Base64 of the kiosk's P-256 public key, X9.63 (uncompressed point, 65 bytes).
    public var peerKey: String
    /// Seconds since 1970, UTC.
    public var notBefore: Int64
    public var notAfter: Int64
    /// Base64 of the 64-byte Ed25519 signature.
    public var signature: String

    public init(
        version: Int, keyId: Int, tenantId: UInt32, eventId: UInt32, deviceId: String, door: String,
        peerKey: String, notBefore: Int64, notAfter: Int64, signature: String
    ) {
        self.version = version
        self.keyId = keyId
        self.tenantId = tenantId
        self.eventId = eventId
        self.deviceId = deviceId
        self.door = door
        self.peerKey = peerKey
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.signature = signature
    }
}

/// A device's revocation on the wire: the server's signed statement that `deviceId` was revoked at `revokedAt`
/// (seconds since 1970), for `eventId` of `tenantId`. Doors refuse its peer credentials issued until then.
public struct DeviceRevocationWire: Codable, Equatable, Sendable {
    public var keyId: Int
    public var tenantId: UInt32
    public var eventId: UInt32
    public var deviceId: String
    public var revokedAt: Int64
    /// Base64 of the 64-byte Ed25519 signature.
    public var signature: String

    public init(keyId: Int, tenantId: UInt32, eventId: UInt32, deviceId: String, revokedAt: Int64, signature: String) {
        self.keyId = keyId
        self.tenantId = tenantId
        self.eventId = eventId
        self.deviceId = deviceId
        self.revokedAt = revokedAt
        self.signature = signature
    }
}
