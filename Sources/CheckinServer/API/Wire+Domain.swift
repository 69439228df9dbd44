import CheckinCore
import Foundation
import PassFormat
import WireAPI

// Between the wire types of WireAPI and the domain of CheckinCore.

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

extension WireAPI.CheckInSummary {
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
            partySize: guest.partySize, ticketType: guest.ticketType, checkInNote: guest.checkInNote,
            arrivalAlert: guest.arrivalAlert, status: guest.status == .active ? .active : .cancelled,
            version: guest.version, checkIn: guest.checkIn.map(WireAPI.CheckInSummary.init))
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
            sequence: sequence, outcome: kind, checkIn: outcome.checkIn.map(WireAPI.CheckInSummary.init),
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
