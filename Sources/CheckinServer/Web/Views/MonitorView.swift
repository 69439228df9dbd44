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
        /// "up to date", "12 changes behind", or empty when the kiosk has not said which roster it holds.
        /// (Strings with a Bool beside them: a String section would make Mustache look every name up in the
        /// string first, by reflection.)
        var rosterBehind: String
        var showBehind: Bool
        var rosterLagging: Bool
        /// "clock 5 min fast" when the kiosk's clock is more than 2 minutes off the server's.
        var clockOff: String
        var showClock: Bool
        var pending: String
        var version: String
        var camera: String
        var enrolledBy: String
        /// The doors of the event's devices this kiosk last reported a live LAN link with ("North, South"), or
        /// "—" (none, or a kiosk without LAN sync).
        var lan: String

        func child(named name: String) -> Any? {
            switch name {
            case "id": id
            case "door": door
            case "health": health
            case "pill": pill
            case "revoked": revoked
            case "lastSeen": lastSeen
            case "rosterFetched": rosterFetched
            case "rosterBehind": rosterBehind
            case "showBehind": showBehind
            case "rosterLagging": rosterLagging
            case "clockOff": clockOff
            case "showClock": showClock
            case "pending": pending
            case "version": version
            case "camera": camera
            case "enrolledBy": enrolledBy
            case "lan": lan
            default: nil
            }
        }
    }

    var eventId: UInt32
    var eventName: String
    var opsContact: String?
    var asOf: String
    var zone: String
    var deviceCount: Int
    var devicesText: String
    var quiet: Bool
    var hasDevices: Bool
    var rows: [Row]

    /// A clock further off than this is flagged: scan times are corrected by the measured offset, but door
    /// staff should fix the kiosk's time.
    static let clockTolerance: Int64 = 2 * 60 * 1000

    /// `behind` maps roster change cursors to how many changes the event had after them
    /// (`CheckinRepository.rosterChangesBehind`).
    init(
        event: Event, devices: [EventDevice], behind: [String: Int] = [:], now: Date,
        timeZone: TimeZone = .current
    ) {
        let clock = TimeText(now: now, timeZone: timeZone)
        eventId = event.id.rawValue
        eventName = event.name
        opsContact = event.opsContact.flatMap { $0.isEmpty ? nil : $0 }
        asOf = clock.time(now)
        zone = clock.zone
        deviceCount = devices.count
        devicesText = TimeText.counted(devices.count, "device")
        hasDevices = !devices.isEmpty
        // The venue went quiet: kiosks are enrolled (revoked ones do not count) and none was heard from lately.
        let active = devices.filter { !$0.device.revoked }
        quiet = !active.isEmpty && DeviceHealth.noneRecentlySeen(active.map(\.device.lastSeenAt), now: now)
        let doors = Dictionary(
            devices.map { ($0.device.id, $0.device.lastReport?.door ?? $0.device.door) },
            uniquingKeysWith: { a, _ in a })
        rows = devices.map { enrolled in
            let device = enrolled.device
            let health = DeviceHealth(lastSeen: device.lastSeenAt, now: now)
            let report = device.lastReport
            let lag = report?.rosterCursor.flatMap { behind[$0] }
            let clockFlag = device.knownClockOffsetMs.flatMap(Self.clockText)
            return Row(
                id: device.id, door: report?.door ?? device.door, health: health.rawValue,
                pill: Self.pill(health), revoked: device.revoked,
                lastSeen: device.lastSeenAt.map(clock.relative) ?? "never",
                rosterFetched: report?.rosterFetchedAt.map(clock.relative) ?? "not yet",
                rosterBehind: lag.map(Self.behindText) ?? "", showBehind: lag != nil, rosterLagging: (lag ?? 0) > 0,
                clockOff: clockFlag ?? "", showClock: clockFlag != nil,
                pending: report.map { String($0.pending) } ?? "?",
                version: report?.kioskVersion ?? device.kioskVersion, camera: report?.camera ?? "?",
                enrolledBy: enrolled.enrolledBy, lan: Self.lanText(report?.lanPeers ?? [], doors: doors))
        }
    }

    /// The doors of `peers` (device ids) among the event's devices, sorted; ids of no device of the event are
    /// left out. "—" when none is left.
    static func lanText(_ peers: [String], doors: [String: String]) -> String {
        let seen = Set(peers).compactMap { doors[$0] }.sorted()
        return seen.isEmpty ? "—" : seen.joined(separator: ", ")
    }

    static func behindText(_ changes: Int) -> String {
        switch changes {
        case 0: "up to date"
        case 1: "1 change behind"
        default: "\(changes) changes behind"
        }
    }

    /// The flag for a clock more than `clockTolerance` off (`offsetMs` is server minus device), else nil.
    static func clockText(offsetMs: Int64) -> String? {
        guard abs(offsetMs) > clockTolerance else { return nil }
        let minutes = (abs(offsetMs) + 30_000) / 60_000
        let size = minutes >= 120 ? "\(minutes / 60) h" : "\(minutes) min"
        // A device ahead of the server has a negative offset.
        return "clock \(size) \(offsetMs < 0 ? "fast" : "slow")"
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
