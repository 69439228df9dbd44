import EntryRules
import Foundation
import PassFormat

/// A kiosk enrolled by one tenant. The same box enrolled by two tenants is two unrelated devices.
public struct Device: Equatable, Sendable {
    public var id: String
    public var tenant: TenantID
    public var door: String
    public var kioskVersion: String
    /// Goes into every idempotency key of this device's queue; new at each (re-)enrolment.
    public var queueEpoch: String
    public var enrolledAt: Date
    public var revoked: Bool
    /// When it was revoked (nil: not revoked, or a store that does not say).
    public var revokedAt: Date?
    /// The latest heartbeat, if any.
    public var lastReport: DeviceReport?
    public var lastSeenAt: Date?
    /// The list it serves and its direction (issue 51).
    public var gate: Gate

    public init(
        id: String, tenant: TenantID, door: String, kioskVersion: String, queueEpoch: String,
        enrolledAt: Date, revoked: Bool = false, revokedAt: Date? = nil, lastReport: DeviceReport? = nil,
        lastSeenAt: Date? = nil, gate: Gate = .firstListEntry
    ) {
        self.gate = gate
        self.id = id
        self.tenant = tenant
        self.door = door
        self.kioskVersion = kioskVersion
        self.queueEpoch = queueEpoch
        self.enrolledAt = enrolledAt
        self.revoked = revoked || revokedAt != nil
        self.revokedAt = revokedAt
        self.lastReport = lastReport
        self.lastSeenAt = lastSeenAt
    }

    /// The offset (server minus device, ms) the server knows best for this device: the kiosk's own measure
    /// from its last report, else what the report's device time says against the server's receive time; nil
    /// beyond a day either way (`ClockOffsetBound`).
    public var knownClockOffsetMs: Int64? {
        guard let report = lastReport else { return nil }
        if let reported = report.clockOffsetMs { return ClockOffsetBound.accepted(reported) }
        guard let seen = lastSeenAt else { return nil }
        let measured = seen.timeIntervalSince(report.deviceTime) * 1000
        guard measured.isFinite, abs(measured) <= Double(ClockOffsetBound.maximumMs) else { return nil }
        return Int64(measured.rounded())
    }
}

/// A kiosk's heartbeat: what the sync monitor shows.
public struct DeviceReport: Equatable, Sendable, Codable {
    public var door: String
    public var kioskVersion: String
    public var pending: Int
    public var oldestPendingAt: Date?
    public var rosterCursor: String?
    public var rosterFetchedAt: Date?
    public var camera: String
    public var clockOffsetMs: Int64?
    public var deviceTime: Date
    /// The device ids of the peers the kiosk had a live authenticated LAN link with (issue 23, the sync
    /// monitor's "who sees whom"); nil when the kiosk did not say (no LAN sync, or an older kiosk).
    public var lanPeers: [String]?

    public init(
        door: String, kioskVersion: String, pending: Int, oldestPendingAt: Date? = nil,
        rosterCursor: String? = nil, rosterFetchedAt: Date? = nil, camera: String,
        clockOffsetMs: Int64? = nil, deviceTime: Date, lanPeers: [String]? = nil
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
        self.lanPeers = lanPeers
    }
}

/// A one-time enrolment code as stored: only its SHA-256 (hex), never the code.
public struct EnrolmentCode: Equatable, Sendable {
    public var codeHash: String
    public var tenant: TenantID
    /// The event it was made for (what the organizer had open).
    public var event: EventID
    /// Re-enrol this device (a replaced kiosk) instead of making a new one.
    public var replacesDevice: String?
    public var createdAt: Date
    public var expiresAt: Date
    public var usedAt: Date?
    /// Who made it: an organizer's e-mail address, or "admin" (the command line or the admin token).
    public var createdBy: String
    /// The gate the device it enrols gets (issue 51).
    public var gate: Gate

    public init(
        codeHash: String, tenant: TenantID, event: EventID, replacesDevice: String? = nil,
        createdAt: Date, expiresAt: Date, usedAt: Date? = nil, createdBy: String = "admin",
        gate: Gate = .firstListEntry
    ) {
        self.gate = gate
        self.createdBy = createdBy
        self.codeHash = codeHash
        self.tenant = tenant
        self.event = event
        self.replacesDevice = replacesDevice
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
    }

    /// How long a new code stays valid.
    public static let lifetime: TimeInterval = 24 * 3600
}

/// What redeeming a code needs besides the code: the new device's identity and its token's hash.
public struct Enrolling: Equatable, Sendable {
    public var codeHash: String
    /// Used when the code makes a new device.
    public var newDeviceId: String
    public var tokenHash: String
    public var queueEpoch: String
    public var door: String
    public var kioskVersion: String
    /// The SHA-256 of the kiosk's enrolment nonce, if it sent one: a retried redeem of a used code with the same
    /// nonce, within the code's validity, gives the same device a new token (the answer to the first was lost).
    public var nonceHash: String?
    /// The SHA-256 of the token the kiosk held before (it enrols again): a device of the code's tenant, not
    /// revoked, with that token is renewed rather than a second device made.
    public var replacesTokenHash: String?

    public init(
        codeHash: String, newDeviceId: String, tokenHash: String, queueEpoch: String, door: String,
        kioskVersion: String, nonceHash: String? = nil, replacesTokenHash: String? = nil
    ) {
        self.replacesTokenHash = replacesTokenHash
        self.codeHash = codeHash
        self.newDeviceId = newDeviceId
        self.tokenHash = tokenHash
        self.queueEpoch = queueEpoch
        self.door = door
        self.kioskVersion = kioskVersion
        self.nonceHash = nonceHash
    }
}

/// A device as the sync monitor lists it: with who made the code it enrolled with.
public struct EventDevice: Equatable, Sendable {
    public var device: Device
    public var enrolledBy: String

    public init(device: Device, enrolledBy: String) {
        self.device = device
        self.enrolledBy = enrolledBy
    }
}
