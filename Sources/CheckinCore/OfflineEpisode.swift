import Foundation
import PassFormat

/// One silence of one device during an event: from its last contact until it reports again. Known by the
/// device and that last contact, so that each silence is recorded, and alerted, once.
public struct OfflineEpisode: Equatable, Sendable {
    public var event: EventID
    public var device: String
    public var door: String
    /// The device's last contact before the silence.
    public var lastSeenAt: Date
    /// When the server noticed (30 minutes of silence or a little later).
    public var detectedAt: Date
    /// When the device reported again; nil while it is silent.
    public var endedAt: Date?

    public init(
        event: EventID, device: String, door: String, lastSeenAt: Date, detectedAt: Date, endedAt: Date? = nil
    ) {
        self.event = event
        self.device = device
        self.door = door
        self.lastSeenAt = lastSeenAt
        self.detectedAt = detectedAt
        self.endedAt = endedAt
    }
}

/// Which devices of an event went offline, and which came back, during the event: the rule behind the
/// organizer's offline alerts. Pure: the watch service feeds it the devices and the open episodes.
public enum OfflineWatch {
    /// Alerts start this long before the event (doors open early, kiosks are set up) and stop when it closes.
    public static let leadTime: TimeInterval = 2 * 3600

    /// Whether alerts are watched for at `now`.
    public static func watches(_ event: Event, at now: Date) -> Bool {
        now >= event.startsAt.addingTimeInterval(-leadTime) && now <= event.closesAt
    }

    /// New episodes: devices offline now (`DeviceHealth.offline`, 30 minutes silent) that went silent within
    /// the event's window and have no episode for that silence yet. Ended: open episodes whose device has
    /// reported since. Revoked devices and devices never seen start nothing; a kiosk last used the day
    /// before does not alert at the start of the window.
    public static func changes(event: Event, devices: [EventDevice], open: [OfflineEpisode], now: Date) -> (
        started: [OfflineEpisode], ended: [OfflineEpisode]
    ) {
        let openByDevice = Dictionary(open.map { ($0.device, $0) }, uniquingKeysWith: { a, b in max(a, b) })
        var started: [OfflineEpisode] = []
        var ended: [OfflineEpisode] = []
        let windowStart = event.startsAt.addingTimeInterval(-leadTime)
        for enrolled in devices {
            let device = enrolled.device
            let door = device.lastReport?.door ?? device.door
            if let episode = openByDevice[device.id], let seen = device.lastSeenAt, seen > episode.lastSeenAt {
                var back = episode
                back.endedAt = seen
                back.door = door
                ended.append(back)
            }
            guard watches(event, at: now), !device.revoked, let seen = device.lastSeenAt,
                DeviceHealth(lastSeen: seen, now: now) == .offline,
                seen.addingTimeInterval(DeviceHealth.offlineAfter) >= windowStart,
                openByDevice[device.id]?.lastSeenAt != seen
            else { continue }
            started.append(
                OfflineEpisode(event: event.id, device: device.id, door: door, lastSeenAt: seen, detectedAt: now))
        }
        return (started, ended)
    }
}

extension OfflineEpisode: Comparable {
    /// By last contact: of two open episodes of one device, the later is the current one.
    public static func < (a: OfflineEpisode, b: OfflineEpisode) -> Bool { a.lastSeenAt < b.lastSeenAt }
}
