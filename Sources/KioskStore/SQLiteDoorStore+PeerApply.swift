internal import GRDB
import KioskCore
import PassFormat

import struct Foundation.Date

/// Taking in the items peers send (docs/SYNC.md, "Between doors"): the set of items grows by union, and what the
/// door shows for a guest follows the server's rule: the earliest corrected scan admits, a revert cancels the
/// scan it names. Nothing here touches the sync queue: each door uploads only its own items, and the server's
/// answers and roster rows still settle any disagreement when they come.
extension SQLiteDoorStore {
    /// Keeps the items in one durable transaction and returns those that were new (for the caller to relay).
    /// Skipped: items that are not well formed, items of this kiosk's own stream (a peer cannot speak for it),
    /// and items of an event whose roster this kiosk does not hold.
    ///
    /// Each new check-in becomes the guest's check-in here if the guest has none or the one held is later
    /// (corrected time); when the one held is this door's own admit, that admit becomes a double entry
    /// (`sync_superseded`). A new revert removes the check-in it names if that is still the guest's check-in here,
    /// and the earliest check-in still standing (a peer's, or this door's own) takes its place.
    @discardableResult
    public func applyPeerItems(_ items: [PeerItem], at now: Date) throws -> [PeerItem] {
        try write("applying peers' items") { db in
            let own = try Self.ownPeerStream(db)
            var events: [UInt32: Bool] = [:]
            var applied: [PeerItem] = []
            let context = PeerApply(db: db, own: own?.stream, ownOffsetMs: own?.clockOffsetMs, now: now)
            for item in items {
                guard Self.isAcceptable(item), item.stream != own?.stream else { continue }
                if events[item.event] == nil { events[item.event] = try Self.holdsRoster(event: item.event, db) }
                guard events[item.event] == true else { continue }
                try db.cachedStatement(
                    sql: """
                        INSERT INTO peer_items (\(PeerItemRecord.insertColumns))
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (device, epoch, sequence) DO NOTHING
                        """
                ).execute(arguments: PeerItemRecord.arguments(item, receivedAt: now.storeMilliseconds))
                guard db.changesCount == 1 else { continue }
                applied.append(item)
                switch item.kind {
                case .checkIn: try context.adopt(item)
                case .revert: try context.revert(item)
                }
            }
            return applied
        }
    }

    /// Well formed, and a guest code and a scan source the kiosk's tables take. A revert carries no party
    /// (`arrived` 0, as this kiosk's own reverts do), which `isWellFormed` alone refuses.
    static func isAcceptable(_ item: PeerItem) -> Bool {
        var bounded = item
        if item.kind == .revert && item.arrived == 0 { bounded.arrived = 1 }
        guard bounded.isWellFormed, let guest = GuestID(text: item.guest), guest.text == item.guest else {
            return false
        }
        return ScanSource(rawValue: item.source) != nil
    }

    /// Whether the kiosk holds the event's roster (guests of it, or its download started).
    static func holdsRoster(event: UInt32, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT EXISTS (SELECT 1 FROM roster WHERE event = ?1)
                        OR EXISTS (SELECT 1 FROM sync_roster WHERE event = ?1)
                    """), arguments: [Int64(event)]) ?? false
    }
}

/// One transaction's view of a guest's check-in while peers' items are applied.
private struct PeerApply {
    let db: Database
    let own: PeerVector.Stream?
    let ownOffsetMs: Int64?
    let now: Date

    /// The guest's check-in row here.
    struct Held {
        var door: String
        var at: Int64
        var queueSequence: Int64?
    }

    /// A check-in that may stand for the guest: a held item not reverted, or this door's superseded admit.
    struct Candidate {
        var door: String
        var at: Int64
        var arrived: Int
        var source: String
        var corrected: Int64
        /// This door's own admit, with its queue sequence.
        var ownSequence: Int64?
    }

    /// A new check-in item: the guest's check-in here if there is none or the one held was scanned later.
    func adopt(_ item: PeerItem) throws {
        guard try !isReverted(item) else { return }
        let key = RosterHoldings.Key(event: Int64(item.event), id: item.guest)
        let corrected = Self.corrected(item.at, offsetMs: item.clockOffsetMs)
        guard let held = try held(key) else {
            try write(item, key)
            return
        }
        if let sequence = held.queueSequence {
            // This door's own admit: if the peer's scan was earlier, ours is a double entry.
            guard corrected < Self.corrected(held.at, offsetMs: ownOffsetMs) else { return }
            try SQLiteDoorStore.supersede(own: sequence, winner: try checkIn(item), key: key, at: now, db)
        } else {
            guard corrected < (try correctedTime(of: held, key)) else { return }
        }
        try write(item, key)
    }

    /// A new revert: if the check-in it names is the guest's check-in here, it goes, and the earliest check-in
    /// still standing takes its place.
    func revert(_ item: PeerItem) throws {
        guard let reverts = item.reverts,
            let target = try PeerItemRecord.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM peer_items
                        WHERE device = ? AND epoch = ? AND sequence = ? AND kind = 'check_in'
                        """), arguments: [item.device, item.epoch, reverts])?.item
        else { return }
        let key = RosterHoldings.Key(event: Int64(target.event), id: target.guest)
        guard let held = try held(key), held.queueSequence == nil, held.door == target.door, held.at == target.at
        else { return }
        try db.cachedStatement(sql: "DELETE FROM check_ins WHERE event = ? AND guest_id = ?")
            .execute(arguments: [key.event, key.id])
        guard let next = try candidates(key).min(by: { $0.corrected < $1.corrected }) else { return }
        try db.cachedStatement(
            sql: """
                INSERT INTO check_ins (event, guest_id, door, at, arrived, source, queue_sequence)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [key.event, key.id, next.door, next.at, next.arrived, next.source, next.ownSequence])
        if let sequence = next.ownSequence {
            // This door's admit is the check-in again: no longer a double entry.
            try db.cachedStatement(sql: "DELETE FROM sync_superseded WHERE sequence = ?").execute(arguments: [sequence])
        }
    }

    /// The check-ins of the guest that may stand: held check-in items no revert names, and this door's
    /// superseded admits (an admit of this door made before it was enrolled is not among the items). Ordered
    /// by key, so equal times pick the same one on every door.
    private func candidates(_ key: RosterHoldings.Key) throws -> [Candidate] {
        var candidates: [Candidate] = []
        var ownSequences: Set<Int64> = []
        let items = try PeerItemRecord.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT * FROM peer_items AS c
                    WHERE c.event = ? AND c.guest_id = ? AND c.kind = 'check_in'
                        AND NOT EXISTS (
                            SELECT 1 FROM peer_items AS r
                            WHERE r.event = c.event AND r.guest_id = c.guest_id AND r.kind = 'revert'
                                AND r.device = c.device AND r.epoch = c.epoch AND r.reverts = c.sequence)
                    ORDER BY c.device, c.epoch, c.sequence
                    """), arguments: [key.event, key.id])
        for item in items.map(\.item) {
            let isOwn = item.stream == own
            if isOwn { ownSequences.insert(item.sequence) }
            candidates.append(
                Candidate(
                    door: item.door, at: item.at, arrived: item.arrived, source: item.source,
                    corrected: Self.corrected(item.at, offsetMs: isOwn ? ownOffsetMs : item.clockOffsetMs),
                    ownSequence: isOwn ? item.sequence : nil))
        }
        let superseded = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT sequence, door, at, arrived, source FROM sync_superseded
                    WHERE event = ? AND guest_id = ? ORDER BY sequence
                    """), arguments: [key.event, key.id])
        for row in superseded {
            let sequence = try row.decode(Int64.self, forColumn: Column("sequence"))
            guard !ownSequences.contains(sequence) else { continue }
            let at = try row.decode(Int64.self, forColumn: Column("at"))
            candidates.append(
                Candidate(
                    door: try row.text(Column("door")), at: at, arrived: try row.int(Column("arrived")),
                    source: try row.text(Column("source")), corrected: Self.corrected(at, offsetMs: ownOffsetMs),
                    ownSequence: sequence))
        }
        return candidates
    }

    /// Whether a held revert names the check-in item (it may have arrived first).
    private func isReverted(_ item: PeerItem) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT EXISTS (
                        SELECT 1 FROM peer_items
                        WHERE event = ? AND guest_id = ? AND kind = 'revert' AND device = ? AND epoch = ? AND reverts = ?)
                    """), arguments: [Int64(item.event), item.guest, item.device, item.epoch, item.sequence]) ?? false
    }

    private func held(_ key: RosterHoldings.Key) throws -> Held? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT door, at, queue_sequence FROM check_ins WHERE event = ? AND guest_id = ?"),
                arguments: [key.event, key.id])
        else { return nil }
        return Held(
            door: try row.text(Column("door")), at: try row.decode(Int64.self, forColumn: Column("at")),
            queueSequence: try row.decode(Int64?.self, forColumn: Column("queue_sequence")))
    }

    /// Another door's check-in held here: a peer's item's corrected time if it is one, else the server's (whose
    /// check-in times are corrected already).
    private func correctedTime(of held: Held, _ key: RosterHoldings.Key) throws -> Int64 {
        // No such item (the server's row) and an item without an offset both leave the time as it is.
        let offset = try Int64.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT clock_offset_ms FROM peer_items
                    WHERE event = ? AND guest_id = ? AND kind = 'check_in' AND door = ? AND at = ?
                    ORDER BY device, epoch, sequence LIMIT 1
                    """), arguments: [key.event, key.id, held.door, held.at])
        return Self.corrected(held.at, offsetMs: offset)
    }

    /// The item becomes the guest's check-in here, not this door's to undo.
    private func write(_ item: PeerItem, _ key: RosterHoldings.Key) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO check_ins (event, guest_id, door, at, arrived, source, queue_sequence)
                VALUES (?, ?, ?, ?, ?, ?, NULL)
                ON CONFLICT (event, guest_id) DO UPDATE SET
                    door = excluded.door, at = excluded.at, arrived = excluded.arrived, source = excluded.source,
                    queue_sequence = NULL
                """
        ).execute(arguments: [key.event, key.id, item.door, item.at, item.arrived, item.source])
    }

    private func checkIn(_ item: PeerItem) throws -> CheckIn {
        guard let guest = GuestID(text: item.guest), let source = ScanSource(rawValue: item.source) else {
            throw StoreError.corruptValue("peer item of guest '\(item.guest)'", operation: "reading a row", path: "")
        }
        return CheckIn(
            guest: guest, event: EventID(item.event), door: item.door, at: Date(storeMilliseconds: item.at),
            arrived: item.arrived, source: source)
    }

    /// A scan's time on the server's clock, as the server places it: an offset beyond a day is ignored
    /// (`ClockOffsetBound`), and the sum saturates rather than trapping on a peer's extreme time.
    static func corrected(_ at: Int64, offsetMs: Int64?) -> Int64 {
        guard let offsetMs, (-maximumOffsetMs...maximumOffsetMs).contains(offsetMs) else { return at }
        let (sum, overflow) = at.addingReportingOverflow(offsetMs)
        return overflow ? (offsetMs > 0 ? .max : .min) : sum
    }

    /// The server's `ClockOffsetBound.maximumMs`: a day.
    static let maximumOffsetMs: Int64 = 24 * 3600 * 1000
}
