import Foundation
import KioskCore
import KioskStore

/// `kioskctl status --json`: the kiosk's figures for a machine (a venue's monitoring, a script at the door).
struct StatusReport: Encodable {
    struct Sync: Encodable {
        /// online, offline, not_enrolled or standalone.
        var state: String
        var server: String?
        var deviceId: String?
        var lastContact: Date?
        var clockOffsetMs: Int64?
        var failures: Int
        var superseded: Int
    }
    struct RosterState: Encodable {
        var complete: Bool
        var fetched: Int
        var total: Int?
        var fetchedAt: Date?
    }
    struct Entry: Encodable {
        var at: Date
        var source: String
        var verdict: String
        var guestId: String?
        var reason: String
    }

    var door: String
    var event: UInt32
    /// What keeps the database key from a copy of the card: tpm2, host_key_only (a copy opens it), key_file or
    /// unknown.
    var databaseKey: String
    var guests: Int
    var checkedIn: Int
    var pending: Int
    var oldestPendingAt: Date?
    /// Every scan the audit log holds, by verdict.
    var scansByVerdict: [String: Int]
    var sync: Sync
    var roster: RosterState?
    /// When the guests' names, e-mail addresses and notes are deleted here (the server's retention), and when
    /// they were; nil before the server has said.
    var personalDataPurgeAt: Date?
    var personalDataPurgedAt: Date?
    var audit: [Entry]
    /// The doors of the event this one has heard on the LAN, and whether a link to each is up.
    var lanPeers: [LANPeer]?

    struct LANPeer: Encodable {
        var deviceId: String
        var door: String
        var address: String
        var lastHeard: Date
        var linked: Bool
        /// Its clock minus this door's (ms), measured at the last link; nil before one.
        var clockSkewMs: Int64?
    }

    init(settings: KioskConfiguration, store: SQLiteDoorStore, last: Int, now: Date) throws {
        door = settings.door
        databaseKey =
            switch DatabaseKey.protection(for: settings) {
            case .tpm2: "tpm2"
            case .hostKeyOnly: "host_key_only"
            case .keyFile: "key_file"
            case .unknown: "unknown"
            }
        event = settings.event.rawValue
        guests = try store.guestCount(event: settings.event)
        checkedIn = try store.checkIns(event: settings.event).count
        pending = try store.pendingCount()
        oldestPendingAt = try store.nextSyncBatch(limit: 1).first?.checkIn.at
        scansByVerdict = try store.auditCountsByVerdict()
        let failures = try store.syncFailures().count
        let superseded = try store.supersededScans().count
        if let enrolment = try store.enrolment() {
            let contact = try store.lastContact()
            let online = Self.isOnline(lastContact: contact?.at, settings: settings, now: now)
            sync = Sync(
                state: online ? "online" : "offline", server: enrolment.serverURL, deviceId: enrolment.deviceID,
                lastContact: contact?.at, clockOffsetMs: contact?.clockOffsetMilliseconds, failures: failures,
                superseded: superseded)
        } else {
            sync = Sync(
                state: settings.server == nil ? "standalone" : "not_enrolled", server: settings.server,
                failures: failures, superseded: superseded)
        }
        roster = try store.rosterSyncState(event: settings.event).map {
            RosterState(complete: $0.complete, fetched: $0.fetched, total: $0.total, fetchedAt: $0.fetchedAt)
        }
        let retention = try store.personalDataRetention(event: settings.event)
        personalDataPurgeAt = retention?.purgeAt
        personalDataPurgedAt = retention?.purgedAt
        lanPeers =
            settings.lanSync && settings.server != nil
            ? try store.peerSightings().map {
                LANPeer(
                    deviceId: $0.device, door: $0.door, address: $0.address,
                    lastHeard: Date(timeIntervalSince1970: Double($0.lastHeard) / 1000), linked: $0.linked,
                    clockSkewMs: $0.clockSkewMs)
            } : nil
        audit = try store.auditLog(limit: last).map {
            Entry(
                at: $0.at, source: $0.source.rawValue, verdict: $0.verdict, guestId: $0.guest?.text, reason: $0.reason)
        }
    }

    /// Online: the server answered within three sync intervals (at least two minutes). The text status and the
    /// JSON both say it by this rule.
    static func isOnline(lastContact: Date?, settings: KioskConfiguration, now: Date) -> Bool {
        lastContact.map { now.timeIntervalSince($0) <= max(3 * settings.syncInterval, 120) } ?? false
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
