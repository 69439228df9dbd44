import struct Foundation.Date

/// `POST /v1/devices/heartbeat`: a kiosk reports in, with each sync and every 60 seconds.
public struct Heartbeat: Codable, Equatable, Sendable {
    public var door: String
    public var kioskVersion: String
    public var pending: Int
    public var oldestPendingAt: Date?
    public var rosterCursor: String?
    public var rosterFetchedAt: Date?
    public var camera: String
    public var clockOffsetMs: Int64?
    public var deviceTime: Date
    /// Base64 of the kiosk's peer public key (P-256, X9.63, 65 bytes): the answer then holds fresh peer
    /// credentials, so they rotate with every heartbeat.
    public var peerKey: String?
    /// The device ids of the peers this kiosk has a live authenticated LAN link with (at most
    /// `maximumLANPeers`, each 1 to 64 characters); nil from kiosks without LAN sync.
    public var lanPeers: [String]?

    public static let maximumLANPeers = 64

    public init(
        door: String, kioskVersion: String, pending: Int, oldestPendingAt: Date?, rosterCursor: String?,
        rosterFetchedAt: Date?, camera: String, clockOffsetMs: Int64?, deviceTime: Date, peerKey: String? = nil,
        lanPeers: [String]? = nil
    ) {
        self.door = door
        self.kioskVersion = kioskVersion
        self.pending = pending
        self.oldestPendingAt = oldestPendingAt
        self.rosterCursor = rosterCursor
        self.rosterFetchedAt = rosterFetchedAt
        self.camera = camera
        self.clockOffsetMs = clockOffsetMs
        self.deviceTime = deviceTime
        self.peerKey = peerKey
        self.lanPeers = lanPeers
    }
}

public struct HeartbeatAnswer: Codable, Equatable, Sendable {
    public struct EventRequirement: Codable, Equatable, Sendable {
        public var id: UInt32
        public var minimumKioskVersion: String?
        /// When kiosks delete the event's guests' personal data (names, e-mail addresses, notes): the server's
        /// retention after the event's end (`serve --retention-days`). Absent from older servers.
        public var personalDataPurgeAt: Date?

        public init(id: UInt32, minimumKioskVersion: String?, personalDataPurgeAt: Date? = nil) {
            self.id = id
            self.minimumKioskVersion = minimumKioskVersion
            self.personalDataPurgeAt = personalDataPurgeAt
        }
    }

    public var serverTime: Date
    public var events: [EventRequirement]
    /// Fresh peer credentials, one per event, when the heartbeat carried a `peerKey`.
    public var peerCredentials: [PeerCredentialWire]?
    /// With the credentials: the devices of the kiosk's events revoked while a credential of theirs may still be
    /// valid, each signed, so doors refuse and pass on the revocation (docs/SYNC.md, "As built on the LAN").
    public var revocations: [DeviceRevocationWire]?

    public init(
        serverTime: Date, events: [EventRequirement], peerCredentials: [PeerCredentialWire]? = nil,
        revocations: [DeviceRevocationWire]? = nil
    ) {
        self.serverTime = serverTime
        self.events = events
        self.peerCredentials = peerCredentials
        self.revocations = revocations
    }
}
