internal import GRDB
import KioskCore
import PassFormat
import SignedRecords

import struct Foundation.Data
import struct Foundation.Date
import class Foundation.JSONDecoder
import class Foundation.JSONEncoder

/// The server's signed notices that doors pass on to each other (docs/SYNC.md, "As built on the LAN"): the
/// newest signed row of each guest a roster delta brought, and device revocations. The store keeps and applies
/// them; checking their signatures is the caller's (KioskPeers, with the kiosk's trusted keys), before they come
/// here.
extension SQLiteDoorStore {
    /// A notice kept, with its place in the order of arrival (for the push to linked doors).
    public struct Kept<Notice: Sendable>: Sendable {
        public var id: Int64
        public var notice: Notice
    }

    /// Keeps the signed rows of a delta this kiosk applied itself (from its server), each replacing an older one
    /// kept for its guest. The roster already holds them.
    public func keepGuestNotices(_ notices: [GuestNotice], at now: Date) throws {
        guard !notices.isEmpty else { return }
        let encoded = try encode(notices, operation: "encoding the delta's signed rows")
        try write("keeping the delta's signed rows", durability: .normal) { db in
            for (notice, json) in zip(notices, encoded) { _ = try Self.keep(notice, json: json, at: now, db) }
        }
    }

    /// Takes in guest rows a peer passed on (their signatures already checked): each one newer than what is kept
    /// for its guest is kept, and, if newer than the guest's roster row here (or the guest is not on it: a walk-in),
    /// becomes the row: its status, a tombstone for a cancellation (removed when the guest is active again), its
    /// name and notes. The guest's check-in is left as it is (check-ins travel as the doors' own items). One
    /// transaction; returns the notices that were new here, to pass on to other links.
    @discardableResult
    public func applyGuestNotices(_ notices: [GuestNotice], at now: Date) throws -> [GuestNotice] {
        guard !notices.isEmpty else { return [] }
        let encoded = try encode(notices, operation: "encoding peers' guest rows")
        return try write("applying peers' guest rows") { db in
            var applied: [GuestNotice] = []
            var words = RosterWords()
            var events: [UInt32: Bool] = [:]
            for (notice, json) in zip(notices, encoded) {
                guard let guest = notice.rosterGuest else { continue }
                // Not into an event whose personal data was purged here: a peer yet to purge still has names.
                if events[notice.event] == nil {
                    events[notice.event] =
                        try Self.holdsRoster(event: notice.event, db) && !Self.isPurged(event: notice.event, db)
                }
                guard events[notice.event] == true, try Self.keep(notice, json: json, at: now, db) else { continue }
                applied.append(notice)
                let arguments: StatementArguments = [Int64(notice.event), notice.guest]
                let held = try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT version FROM roster WHERE event = ? AND guest_id = ?"),
                    arguments: arguments)
                if let held, held >= notice.version { continue }
                try upsert(
                    guest, keys: SearchKeys(guest), version: notice.version, at: now, isNew: held == nil,
                    words: &words, db)
                if guest.status == .cancelled {
                    try Self.cancelledOnServer(arguments, at: now, db)
                } else {
                    try Self.activeOnServer(arguments, db)
                }
            }
            try words.write(db)
            return applied
        }
    }

    /// Of `notices`, those newer than the row kept for their guest (the others are known here): doors that fetched
    /// the same delta pass each other the same rows, and only new ones are worth checking a signature for.
    public func unheldGuestNotices(_ notices: [GuestNotice]) throws -> [GuestNotice] {
        guard !notices.isEmpty else { return [] }
        return try read("reading the guest rows kept") { db in
            try notices.filter { notice in
                let held = try Int64.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT version FROM peer_guest_notices WHERE event = ? AND guest_id = ?"),
                    arguments: [Int64(notice.event), notice.guest])
                return held.map { $0 < notice.version } ?? true
            }
        }
    }

    /// Where the kept guest rows and revocations of `event` end in the order of arrival (0: none): the push starts
    /// after them.
    public func peerNoticeMarks(event: EventID) throws -> (guests: Int64, revocations: Int64) {
        try read("reading the kept notices' ends") { db in
            let arguments: StatementArguments = [Int64(event.rawValue)]
            return (
                try Int64.fetchOne(
                    db, sql: "SELECT MAX(id) FROM peer_guest_notices WHERE event = ?", arguments: arguments)
                    ?? 0,
                try Int64.fetchOne(
                    db, sql: "SELECT MAX(id) FROM peer_revocations WHERE event = ?", arguments: arguments)
                    ?? 0
            )
        }
    }

    /// The guest rows kept for `event` that arrived after `id` (0: all), oldest first, at most `limit`.
    public func guestNotices(event: EventID, after id: Int64, limit: Int) throws -> [Kept<GuestNotice>] {
        try read("reading the guest rows for peers") { db in
            try Self.decode(
                GuestNotice.self,
                rows: Row.fetchAll(
                    db,
                    sql: "SELECT id, notice FROM peer_guest_notices WHERE event = ? AND id > ? ORDER BY id LIMIT ?",
                    arguments: [Int64(event.rawValue), id, limit]),
                operation: "reading the guest rows for peers", path: path)
        }
    }

    /// Keeps revocations (from the server, or passed on by a peer, their signatures already checked): each one
    /// later than what is kept for its device and event replaces it. Returns those that were new here.
    @discardableResult
    public func keepRevocations(_ revocations: [DeviceRevocation], at now: Date) throws -> [DeviceRevocation] {
        guard !revocations.isEmpty else { return [] }
        let encoded = try encode(revocations, operation: "encoding device revocations")
        return try write("keeping device revocations") { db in
            var kept: [DeviceRevocation] = []
            for (revocation, json) in zip(revocations, encoded) {
                let held = try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT revoked_at FROM peer_revocations WHERE event = ? AND device = ?"),
                    arguments: [Int64(revocation.event), revocation.deviceId])
                if let held, held >= revocation.revokedAt { continue }
                // A new row (a new id), so the push passes the later revocation on.
                try db.cachedStatement(sql: "DELETE FROM peer_revocations WHERE event = ? AND device = ?")
                    .execute(arguments: [Int64(revocation.event), revocation.deviceId])
                try db.cachedStatement(
                    sql: """
                        INSERT INTO peer_revocations (event, device, revoked_at, notice, received_at)
                        VALUES (?, ?, ?, ?, ?)
                        """
                ).execute(arguments: [
                    Int64(revocation.event), revocation.deviceId, revocation.revokedAt, json, now.storeMilliseconds,
                ])
                kept.append(revocation)
            }
            return kept
        }
    }

    /// The revocations kept for `event` that arrived after `id` (0: all), oldest first.
    public func revocations(event: EventID, after id: Int64 = 0) throws -> [Kept<DeviceRevocation>] {
        try read("reading device revocations") { db in
            try Self.decode(
                DeviceRevocation.self,
                rows: Row.fetchAll(
                    db, sql: "SELECT id, notice FROM peer_revocations WHERE event = ? AND id > ? ORDER BY id",
                    arguments: [Int64(event.rawValue), id]),
                operation: "reading device revocations", path: path)
        }
    }

    static func isPurged(event: UInt32, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(
                sql: "SELECT EXISTS (SELECT 1 FROM event_retention WHERE event = ? AND purged_at IS NOT NULL)"),
            arguments: [Int64(event)]) ?? false
    }

    /// Keeps `notice` if it is newer than the one kept for its guest; whether it was.
    private static func keep(_ notice: GuestNotice, json: String, at now: Date, _ db: Database) throws -> Bool {
        let arguments: StatementArguments = [Int64(notice.event), notice.guest]
        let held = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT version FROM peer_guest_notices WHERE event = ? AND guest_id = ?"),
            arguments: arguments)
        if let held, held >= notice.version { return false }
        try db.cachedStatement(sql: "DELETE FROM peer_guest_notices WHERE event = ? AND guest_id = ?")
            .execute(arguments: arguments)
        try db.cachedStatement(
            sql: """
                INSERT INTO peer_guest_notices (event, guest_id, version, notice, received_at) VALUES (?, ?, ?, ?, ?)
                """
        ).execute(arguments: arguments + [notice.version, json, now.storeMilliseconds])
        return true
    }

    func encode<Notice: Encodable>(_ notices: [Notice], operation: String) throws -> [String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try run(operation) { try notices.map { String(decoding: try encoder.encode($0), as: UTF8.self) } }
    }

    private static func decode<Notice: Decodable & Sendable>(
        _ type: Notice.Type, rows: [Row], operation: String, path: String
    ) throws -> [Kept<Notice>] {
        let decoder = JSONDecoder()
        return try rows.map { row in
            let json: String = row["notice"]
            do {
                return Kept(id: row["id"], notice: try decoder.decode(Notice.self, from: Data(json.utf8)))
            } catch {
                throw StoreError.corruptValue(
                    "a kept notice is not readable: \(error)", operation: operation, path: path)
            }
        }
    }
}
