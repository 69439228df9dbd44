import CheckinCore
import Foundation
import Mustache

/// What the sync monitor shows, as strings: one row per device, and whether the venue went quiet.
struct MonitorView {
    /// A device's row. Mustache asks for its values by name (`child(named:)`), not through reflection: the
    /// monitor renders hundreds of them a few seconds apart.
    struct Row: MustacheParent {
        var id: String
        var door: String
        var health: String
        var pill: String
        var revoked: Bool
        var lastSeen: String
        var rosterFetched: String
        var pending: String
        var version: String
        var camera: String
        var enrolledBy: String

        func child(named name: String) -> Any? {
            switch name {
            case "id": id
            case "door": door
            case "health": health
            case "pill": pill
            case "revoked": revoked
            case "lastSeen": lastSeen
            case "rosterFetched": rosterFetched
            case "pending": pending
            case "version": version
            case "camera": camera
            case "enrolledBy": enrolledBy
            default: nil
            }
        }
    }

    var eventId: UInt32
    var eventName: String
    var opsContact: String?
    var asOf: String
    var deviceCount: Int
    var quiet: Bool
    var hasDevices: Bool
    var rows: [Row]

    init(event: Event, devices: [EventDevice], now: Date, timeZone: TimeZone = .current) {
        let clock = TimeText(now: now, timeZone: timeZone)
        eventId = event.id.rawValue
        eventName = event.name
        opsContact = event.opsContact.flatMap { $0.isEmpty ? nil : $0 }
        asOf = clock.time(now)
        deviceCount = devices.count
        hasDevices = !devices.isEmpty
        // The venue went quiet: kiosks are enrolled (revoked ones do not count) and none was heard from lately.
        let active = devices.filter { !$0.device.revoked }
        quiet = !active.isEmpty && DeviceHealth.noneRecentlySeen(active.map(\.device.lastSeenAt), now: now)
        rows = devices.map { enrolled in
            let device = enrolled.device
            let health = DeviceHealth(lastSeen: device.lastSeenAt, now: now)
            let report = device.lastReport
            return Row(
                id: device.id, door: report?.door ?? device.door, health: health.rawValue,
                pill: Self.pill(health), revoked: device.revoked,
                lastSeen: device.lastSeenAt.map(clock.relative) ?? "never",
                rosterFetched: report?.rosterFetchedAt.map(clock.relative) ?? "not yet",
                pending: report.map { String($0.pending) } ?? "?",
                version: report?.kioskVersion ?? device.kioskVersion, camera: report?.camera ?? "?",
                enrolledBy: enrolled.enrolledBy)
        }
    }

    static func pill(_ health: DeviceHealth) -> String {
        switch health {
        case .live: "online"
        case .stale: "stale"
        case .offline: "offline"
        case .neverSeen: "never seen"
        }
    }
}
