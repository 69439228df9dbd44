import PassFormat

import struct Foundation.Date

/// The kiosk's enrolment with a check-in server (`kioskctl enroll`): kept in the kiosk's database, not in
/// kiosk.conf, since the token is a secret and belongs to this database's queue.
public struct SyncEnrolment: Equatable, Sendable {
    /// The server's base URL, e.g. `https://checkin.example:8443`.
    public var serverURL: String
    /// The device id the server gave (tenant-scoped).
    public var deviceID: String
    /// The bearer token (the server keeps only its hash).
    public var token: String
    public var tenant: TenantID
    /// Goes into every idempotency key of this device's queue.
    public var queueEpoch: String
    /// The PEM file of the CA that signed the server's certificate, if not the system's.
    public var caFile: String?
    public var enrolledAt: Date

    public init(
        serverURL: String, deviceID: String, token: String, tenant: TenantID, queueEpoch: String,
        caFile: String?, enrolledAt: Date
    ) {
        self.serverURL = serverURL
        self.deviceID = deviceID
        self.token = token
        self.tenant = tenant
        self.queueEpoch = queueEpoch
        self.caFile = caFile
        self.enrolledAt = enrolledAt
    }
}

/// When the server last answered and the clock offset it showed (server time minus the device's, ms), with how
/// far that offset may be off (half the round trip of the exchange it was measured at, grown with age since).
public struct SyncContact: Equatable, Sendable {
    public var at: Date
    public var clockOffsetMilliseconds: Int64
    /// nil: not known (a contact recorded before the kiosk kept it).
    public var clockOffsetUncertaintyMilliseconds: Int64?

    public init(at: Date, clockOffsetMilliseconds: Int64, clockOffsetUncertaintyMilliseconds: Int64? = nil) {
        self.at = at
        self.clockOffsetMilliseconds = clockOffsetMilliseconds
        self.clockOffsetUncertaintyMilliseconds = clockOffsetUncertaintyMilliseconds
    }
}
