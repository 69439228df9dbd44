import struct Foundation.Date

/// `POST /v1/enrolments/redeem`: a kiosk redeems a one-time code.
public struct EnrolmentRequest: Codable, Equatable, Sendable {
    public var code: String
    public var door: String
    public var kioskVersion: String
    /// A random value the kiosk makes once per enrolment and keeps (16 to 128 characters): a redeem retried
    /// with the same code and nonce, while the code is valid, gives the same device a new token.
    public var nonce: String?
    /// The kiosk's current token when it enrols again with the same server: the code renews that device (same
    /// id, new token and queue epoch) instead of making a second one that the first would haunt as a silent door.
    public var replacesToken: String?
    /// Base64 of the kiosk's peer public key (P-256, X9.63, 65 bytes): the answer then holds a peer credential
    /// for each event. Older kiosks send none.
    public var peerKey: String?

    public init(
        code: String, door: String, kioskVersion: String, nonce: String? = nil, replacesToken: String? = nil,
        peerKey: String? = nil
    ) {
        self.code = code
        self.door = door
        self.kioskVersion = kioskVersion
        self.nonce = nonce
        self.replacesToken = replacesToken
        self.peerKey = peerKey
    }
}

/// The answer: the device's token (shown once) and what it may see.
public struct Enrolment: Codable, Equatable, Sendable {
    public var deviceId: String
    public var token: String
    public var tenantId: UInt32
    public var events: [EventInfo]
    /// Goes into every idempotency key of this device's queue.
    public var queueEpoch: String
    public var serverTime: Date
    /// One per event of `events`, when the request carried a `peerKey`.
    public var peerCredentials: [PeerCredentialWire]?

    public init(
        deviceId: String, token: String, tenantId: UInt32, events: [EventInfo], queueEpoch: String,
        serverTime: Date, peerCredentials: [PeerCredentialWire]? = nil
    ) {
        self.deviceId = deviceId
        self.token = token
        self.tenantId = tenantId
        self.events = events
        self.queueEpoch = queueEpoch
        self.serverTime = serverTime
        self.peerCredentials = peerCredentials
    }
}
