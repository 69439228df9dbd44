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

    public init(
        door: String, kioskVersion: String, pending: Int, oldestPendingAt: Date?, rosterCursor: String?,
        rosterFetchedAt: Date?, camera: String, clockOffsetMs: Int64?, deviceTime: Date
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

    public init(serverTime: Date, events: [EventRequirement]) {
        self.serverTime = serverTime
        self.events = events
    }
}
