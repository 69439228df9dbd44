import Foundation
import GRDB

// Record types, one per table: their properties are the columns (camelCase for snake_case, see SnakeCaseRecord),
// so nothing is read by position and no column name is spelled twice.

struct TenantRow: SnakeCaseRecord {
    static let databaseTableName = "tenant"
    var id: Int64?
    var name: String
    var createdAt: Date
}

struct EventRow: SnakeCaseRecord {
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
    var timeZone: String?

    enum Columns {
        static let tenantId = Column("tenant_id")
    }
}

struct GuestRow: SnakeCaseRecord {
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

    enum Columns {
        static let eventId = Column("event_id")
        static let id = Column("id")
        static let changeSeq = Column("change_seq")
    }
}

struct DeviceRow: SnakeCaseRecord {
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
    /// A JSON array (migration 0012).
    var reportLanPeers: [String]?
    /// The gate (migration 0013): NULL serves the event's first list.
    var listId: Int64? = nil
    var direction: String = "entry"

    enum Columns {
        static let tenantId = Column("tenant_id")
        static let tokenHash = Column("token_hash")
    }
}

struct EnrolmentCodeRow: SnakeCaseRecord {
    static let databaseTableName = "enrolment_code"
    var codeHash: String
    var tenantId: Int64
    var eventId: Int64
    var replacesDevice: String?
    var createdAt: Date
    var expiresAt: Date
    var usedAt: Date?
    var deviceId: String?
    var createdBy: String
    /// The SHA-256 of the nonce the kiosk redeemed the code with (migration 0006).
    var redeemNonceHash: String?
    /// The gate the device gets (migration 0013).
    var listId: Int64? = nil
    var direction: String = "entry"
}

struct OrganizerRow: SnakeCaseRecord {
    static let databaseTableName = "organizer"
    var id: Int64?
    var tenantId: Int64
    var email: String
    var name: String
    var passwordHash: String
    var createdAt: Date

    enum Columns {
        static let email = Column("email")
    }
}

struct WebSessionRow: SnakeCaseRecord {
    static let databaseTableName = "web_session"
    var tokenHash: String
    var organizerId: Int64
    var csrfToken: String
    var createdAt: Date
    var expiresAt: Date
}

struct CheckInRow: SnakeCaseRecord {
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

    enum Columns {
        static let eventId = Column("event_id")
        static let guestId = Column("guest_id")
    }
}

struct CheckInEventRow: SnakeCaseRecord {
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
    /// The list of the scan (migration 0014).
    var listId: Int64? = nil

    enum Columns {
        static let id = Column("id")
        static let eventId = Column("event_id")
        static let guestId = Column("guest_id")
        static let deviceId = Column("device_id")
        static let epoch = Column("epoch")
        static let sequence = Column("sequence")
    }
}

struct AuditRow: SnakeCaseRecord {
    static let databaseTableName = "audit"
    var id: Int64?
    var at: Date
    var tenantId: Int64?
    var deviceId: String?
    var action: String
    var detail: String

    enum Columns {
        static let id = Column("id")
        static let tenantId = Column("tenant_id")
    }
}

struct SettingRow: SnakeCaseRecord {
    static let databaseTableName = "setting"
    var name: String
    var value: String
    var updatedAt: Date
}

/// A row whose Swift properties are the table's columns in camelCase (`eventId` is `event_id`): GRDB converts
/// the names, so no record spells its columns twice.
protocol SnakeCaseRecord: Codable, FetchableRecord, PersistableRecord {}

extension SnakeCaseRecord {
    static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .convertFromSnakeCase }
    static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .convertToSnakeCase }
}
