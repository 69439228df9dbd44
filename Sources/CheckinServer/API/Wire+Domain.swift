import CheckinAPI
import CheckinCore
import Foundation
import KioskCore
import PassFormat

// Between the wire types of CheckinAPI and the domain of CheckinCore.

extension EventInfo {
    init(_ event: Event) {
        self.init(
            id: event.id.rawValue, tenantId: event.tenant.rawValue, name: event.name, venue: event.venue,
            opsContact: event.opsContact, startsAt: event.startsAt, endsAt: event.endsAt,
            graceMinutes: event.graceMinutes, minimumKioskVersion: event.minimumKioskVersion?.description,
            timeZone: event.timeZone)
    }
}

/// `Event` of the yaml: the event with `serverTime`.
struct EventAnswer: Encodable {
    var event: EventInfo
    var serverTime: Date

    func encode(to encoder: any Encoder) throws {
        try event.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(serverTime, forKey: .serverTime)
    }

    enum Key: String, CodingKey { case serverTime }
}

extension CheckinAPI.CheckInSummary {
    init(_ summary: CheckinCore.CheckInSummary) {
        self.init(
            door: summary.door, at: summary.at, arrived: summary.arrived, deviceId: summary.deviceId,
            sequence: summary.sequence)
    }
}

extension GuestRecord {
    init(_ guest: Guest) {
        self.init(
            id: guest.id.text, name: guest.name, email: guest.email, phone: guest.phone,
            partySize: guest.partySize, accessType: guest.accessType, checkInNote: guest.checkInNote,
            arrivalAlert: guest.arrivalAlert, status: guest.status == .active ? .active : .cancelled,
            version: guest.version, checkIn: guest.checkIn.map(CheckinAPI.CheckInSummary.init))
    }
}

extension ScanKey {
    init(_ key: ItemKey) { self.init(deviceId: key.deviceId, epoch: key.epoch, sequence: key.sequence) }
}

extension Scan {
    /// The scan an uploaded (or imported) item asks for; nil when its guest id is not one a pass can carry.
    /// The people one scan may count (0 for a revert or a re-confirmation): a party is at most 999, as on the
    /// kiosk and the LAN. `arrived` of 2^63 - 1 made every later sum of the event's arrivals overflow.
    static let arrivals = 0...1000

    init?(_ item: CheckInItem) {
        guard let guest = GuestID(text: item.guestId), item.guestId.count == 16, Self.arrivals.contains(item.arrived)
        else { return nil }
        self.init(
            key: ScanKey(item.key), guest: guest, kind: ScanKind(item.kind), deviceTime: item.scannedAt,
            // Beyond a day either way the offset is ignored (ClockOffsetBound): corrected as if it had none.
            clockOffsetMs: ClockOffsetBound.accepted(item.clockOffsetMs), arrived: item.arrived,
            door: item.door, source: item.source, reverts: item.reverts.map(ScanKey.init))
    }
}

extension CheckInOutcome {
    init(sequence: Int64, _ outcome: ScanOutcome) {
        let kind: Kind =
            switch outcome.kind {
            case .applied: .applied
            case .superseded: .superseded
            case .recorded: .recorded
            case .rejected: .rejected
            }
        self.init(
            sequence: sequence, outcome: kind, checkIn: outcome.checkIn.map(CheckinAPI.CheckInSummary.init),
            reason: outcome.reason)
    }
}

extension DeviceReport {
    init(_ heartbeat: Heartbeat) {
        self.init(
            door: heartbeat.door, kioskVersion: heartbeat.kioskVersion, pending: heartbeat.pending,
            oldestPendingAt: heartbeat.oldestPendingAt, rosterCursor: heartbeat.rosterCursor,
            rosterFetchedAt: heartbeat.rosterFetchedAt, camera: heartbeat.camera,
            clockOffsetMs: heartbeat.clockOffsetMs, deviceTime: heartbeat.deviceTime, lanPeers: heartbeat.lanPeers)
    }
}

/// `DeviceStatus` of the yaml: a device with its last report, for the sync monitor.
struct DeviceStatus: Codable, Equatable {
    var deviceId: String
    var door: String
    var lastSeenAt: Date?
    var rosterFetchedAt: Date?
    var pending: Int?
    var oldestPendingAt: Date?
    var kioskVersion: String
    var camera: String?
    var clockOffsetMs: Int64?
    var revoked: Bool
    /// The device ids it last reported a live LAN link with; nil when it did not say.
    var lanPeers: [String]?

    init(_ device: Device) {
        deviceId = device.id
        door = device.lastReport?.door ?? device.door
        lastSeenAt = device.lastSeenAt
        rosterFetchedAt = device.lastReport?.rosterFetchedAt
        pending = device.lastReport?.pending
        oldestPendingAt = device.lastReport?.oldestPendingAt
        kioskVersion = device.kioskVersion
        camera = device.lastReport?.camera
        clockOffsetMs = device.knownClockOffsetMs
        revoked = device.revoked
        lanPeers = device.lastReport?.lanPeers
    }
}
