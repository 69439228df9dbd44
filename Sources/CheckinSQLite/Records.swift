import Foundation
import GRDB

// Record types, one per table; each names its columns (CodingKeys), so nothing is read by position.

struct TenantRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "tenant"
    var id: Int64?
    var name: String
    var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id, name
        case createdAt = "created_at"
    }
}

struct EventRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "event"
    var id: Int64?
    var tenantId: Int64
    var name: String
    var venue: String?
    var opsContact: String?
    var startsAt: Date
    var endsAt: Date
    var graceMinutes: Int
    var minimumKioskVersion: String?

    enum CodingKeys: String, CodingKey {
        case id, name, venue
        case tenantId = "tenant_id"
        case opsContact = "ops_contact"
        case startsAt = "starts_at"
        case endsAt = "ends_at"
        case graceMinutes = "grace_minutes"
        case minimumKioskVersion = "minimum_kiosk_version"
    }

    enum Columns {
        static let tenantId = Column(CodingKeys.tenantId)
    }
}

struct GuestRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "guest"
    var eventId: Int64
    var id: String
    var name: String
    var email: String?
    var phone: String?
    var partySize: Int
    var accessType: String?
    var checkInNote: String?
    var arrivalAlert: String?
    var status: String
    var version: Int64
    var changeSeq: Int64
    var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, name, email, phone, status, version
        case eventId = "event_id"
        case partySize = "party_size"
        case accessType = "access_type"
        case checkInNote = "check_in_note"
        case arrivalAlert = "arrival_alert"
        case changeSeq = "change_seq"
        case updatedAt = "updated_at"
    }

    enum Columns {
        static let eventId = Column(CodingKeys.eventId)
        static let id = Column(CodingKeys.id)
        static let changeSeq = Column(CodingKeys.changeSeq)
    }
}

struct DeviceRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "device"
    var id: String
    var tenantId: Int64
    var door: String
    var kioskVersion: String
    var tokenHash: String
    var queueEpoch: String
    var enrolledAt: Date
    var revokedAt: Date?
    var lastSeenAt: Date?
    var reportDoor: String?
    var reportKioskVersion: String?
    var reportPending: Int?
    var reportOldestPendingAt: Date?
    var reportRosterCursor: String?
    var reportRosterFetchedAt: Date?
    var reportCamera: String?
    var reportClockOffsetMs: Int64?
    var reportDeviceTime: Date?

    enum CodingKeys: String, CodingKey {
        case id, door
        case tenantId = "tenant_id"
        case kioskVersion = "kiosk_version"
        case tokenHash = "token_hash"
        case queueEpoch = "queue_epoch"
        case enrolledAt = "enrolled_at"
        case revokedAt = "revoked_at"
        case lastSeenAt = "last_seen_at"
        case reportDoor = "report_door"
        case reportKioskVersion = "report_kiosk_version"
        case reportPending = "report_pending"
        case reportOldestPendingAt = "report_oldest_pending_at"
        case reportRosterCursor = "report_roster_cursor"
        case reportRosterFetchedAt = "report_roster_fetched_at"
        case reportCamera = "report_camera"
        case reportClockOffsetMs = "report_clock_offset_ms"
        case reportDeviceTime = "report_device_time"
    }

    enum Columns {
        static let tenantId = Column(CodingKeys.tenantId)
        static let tokenHash = Column(CodingKeys.tokenHash)
    }
}

struct EnrolmentCodeRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "enrolment_code"
    var codeHash: String
    var tenantId: Int64
    var eventId: Int64
    var replacesDevice: String?
    var createdAt: Date
    var expiresAt: Date
    var usedAt: Date?
    var deviceId: String?

    enum CodingKeys: String, CodingKey {
        case codeHash = "code_hash"
        case tenantId = "tenant_id"
        case eventId = "event_id"
        case replacesDevice = "replaces_device"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
        case usedAt = "used_at"
        case deviceId = "device_id"
    }
}

struct CheckInRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "check_in"
    var eventId: Int64
    var guestId: String
    var deviceId: String
    var epoch: String
    var sequence: Int64
    var door: String
    var deviceTime: Date
    var correctedTime: Date
    var receivedAt: Date
    var arrived: Int

    enum CodingKeys: String, CodingKey {
        case epoch, sequence, door, arrived
        case eventId = "event_id"
        case guestId = "guest_id"
        case deviceId = "device_id"
        case deviceTime = "device_time"
        case correctedTime = "corrected_time"
        case receivedAt = "received_at"
    }

    enum Columns {
        static let eventId = Column(CodingKeys.eventId)
        static let guestId = Column(CodingKeys.guestId)
    }
}

struct CheckInEventRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "check_in_event"
    var id: Int64?
    var eventId: Int64
    var guestId: String
    var deviceId: String
    var epoch: String
    var sequence: Int64
    var kind: String
    var door: String
    var source: String
    var deviceTime: Date
    var correctedTime: Date
    var receivedAt: Date
    var arrived: Int
    var outcome: String
    var reason: String?
    var revertsDeviceId: String?
    var revertsEpoch: String?
    var revertsSequence: Int64?
    /// The answer the item got, as JSON: what a repeat of its key gets.
    var answer: String

    enum CodingKeys: String, CodingKey {
        case id, epoch, sequence, kind, door, source, arrived, outcome, reason, answer
        case eventId = "event_id"
        case guestId = "guest_id"
        case deviceId = "device_id"
        case deviceTime = "device_time"
        case correctedTime = "corrected_time"
        case receivedAt = "received_at"
        case revertsDeviceId = "reverts_device_id"
        case revertsEpoch = "reverts_epoch"
        case revertsSequence = "reverts_sequence"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let eventId = Column(CodingKeys.eventId)
        static let deviceId = Column(CodingKeys.deviceId)
        static let epoch = Column(CodingKeys.epoch)
        static let sequence = Column(CodingKeys.sequence)
    }
}

struct AuditRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "audit"
    var id: Int64?
    var at: Date
    var tenantId: Int64?
    var deviceId: String?
    var action: String
    var detail: String

    enum CodingKeys: String, CodingKey {
        case id, at, action, detail
        case tenantId = "tenant_id"
        case deviceId = "device_id"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let tenantId = Column(CodingKeys.tenantId)
    }
}

struct SettingRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "setting"
    var name: String
    var value: String
    var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case name, value
        case updatedAt = "updated_at"
    }
}
