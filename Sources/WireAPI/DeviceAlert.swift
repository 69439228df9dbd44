import struct Foundation.Date

/// The body of the server's offline-alert webhook (Standard Webhooks: `type`, `timestamp`, `data`), signed
/// with the event's secret: `device.offline` when a kiosk has been silent for 30 minutes during the event,
/// `device.back_online` when it reports again. The `webhook-id` header is the same on every retry.
public struct DeviceAlert: Codable, Equatable, Sendable {
    public struct Data: Codable, Equatable, Sendable {
        public var eventId: UInt32
        public var eventName: String
        public var deviceId: String
        public var door: String
        /// The kiosk's last contact before the silence.
        public var lastSeenAt: Date
        /// When the server noticed: 30 minutes of silence or a little later (`device.offline`), or the kiosk's
        /// first contact since (`device.back_online`), to within the server's watch interval.
        public var noticedAt: Date
        public var opsContact: String?
        /// The organizer's sync monitor for the event.
        public var monitorUrl: String

        public init(
            eventId: UInt32, eventName: String, deviceId: String, door: String, lastSeenAt: Date, noticedAt: Date,
            opsContact: String?, monitorUrl: String
        ) {
            self.eventId = eventId
            self.eventName = eventName
            self.deviceId = deviceId
            self.door = door
            self.lastSeenAt = lastSeenAt
            self.noticedAt = noticedAt
            self.opsContact = opsContact
            self.monitorUrl = monitorUrl
        }
    }

    /// `device.offline` or `device.back_online`.
    public var type: String
    public var timestamp: Date
    public var data: Data

    public init(type: String, timestamp: Date, data: Data) {
        self.type = type
        self.timestamp = timestamp
        self.data = data
    }
}
