internal import GRDB
import KioskCore
import PassFormat

/// The items a kiosk holds of each stream (device and queue epoch), as two doors compare them when they connect
/// and as the push loop sends them (docs/SYNC.md, "Between doors": anti-entropy by version vector).
extension SQLiteDoorStore {
    /// Per stream with items of the event: the highest sequence `s` such that the kiosk holds every item of the
    /// stream from the lowest it holds up to `s`. An item relayed ahead of one still missing does not count.
    public func peerVector(event: EventID) throws -> PeerVector {
        PeerVector(
            try read("reading the peer version vector") { db in
                // In each stream's run without a gap from its lowest item, sequence minus rank is the lowest minus 1.
                try Row.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT device, epoch, MIN(lowest) + 1 AS "from", MAX(sequence) AS through FROM (
                                SELECT device, epoch, sequence,
                                    sequence - ROW_NUMBER() OVER (PARTITION BY device, epoch ORDER BY sequence) AS shift,
                                    MIN(sequence) OVER (PARTITION BY device, epoch) - 1 AS lowest
                                FROM peer_items WHERE event = ?
                            )
                            WHERE shift = lowest
                            GROUP BY device, epoch ORDER BY device, epoch
                            """), arguments: [Int64(event.rawValue)]
                ).map { row in
                    PeerVector.Entry(
                        stream: PeerVector.Stream(
                            device: try row.text(Column("device")), epoch: try row.text(Column("epoch"))),
                        from: try row.decode(Int64.self, forColumn: Column("from")),
                        through: try row.decode(Int64.self, forColumn: Column("through")))
                }
            })
    }

    /// The event's items outside what `vector` covers of their stream (below its `from` or above its `through`;
    /// all of a stream it does not name), ordered by stream then sequence, at most `limit`. Reads the event's streams one by one from the index, then each
    /// stream's items from its first uncovered sequence.
    public func peerItems(event: EventID, notCoveredBy vector: PeerVector, limit: Int) throws -> [PeerItem] {
        try read("reading the items a peer lacks") { db in
            let event = Int64(event.rawValue)
            var items: [PeerItem] = []
            var stream = try Self.nextPeerStream(after: nil, event: event, db)
            while let current = stream, items.count < limit {
                items += try PeerItemRecord.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT * FROM peer_items
                            WHERE event = ? AND device = ? AND epoch = ? AND (sequence < ? OR sequence > ?)
                            ORDER BY sequence LIMIT ?
                            """),
                    arguments: [
                        event, current.device, current.epoch, vector.covered(current)?.lowerBound ?? 0,
                        vector.covered(current)?.upperBound ?? 0, limit - items.count,
                    ]
                ).map(\.item)
                stream = try Self.nextPeerStream(after: current, event: event, db)
            }
            return items
        }
    }

    /// The event's first stream after `previous` (the first of all for nil), by the index on event and stream.
    private static func nextPeerStream(after previous: PeerVector.Stream?, event: Int64, _ db: Database) throws
        -> PeerVector.Stream?
    {
        let row: Row?
        if let previous {
            row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT device, epoch FROM peer_items WHERE event = ? AND (device, epoch) > (?, ?)
                        ORDER BY device, epoch LIMIT 1
                        """), arguments: [event, previous.device, previous.epoch])
        } else {
            row = try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT device, epoch FROM peer_items WHERE event = ? ORDER BY device, epoch LIMIT 1"),
                arguments: [event])
        }
        guard let row else { return nil }
        return PeerVector.Stream(device: try row.text(Column("device")), epoch: try row.text(Column("epoch")))
    }

    /// The highest sequence of this kiosk's own items, 0 if none: where the LAN's push loop starts.
    public func ownPeerSequence() throws -> Int64 {
        try read("reading the kiosk's last own item") { db in
            guard let own = try Self.ownPeerStream(db)?.stream else { return 0 }
            return try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT MAX(sequence) FROM peer_items WHERE device = ? AND epoch = ?"),
                arguments: [own.device, own.epoch]) ?? 0
        }
    }

    /// This kiosk's own items (its enrolment's stream, every event) with a sequence above `sequence`, in order,
    /// at most `limit`: what the push loop sends its peers as the door commits them. None before enrolment.
    public func ownPeerItems(after sequence: Int64, limit: Int) throws -> [PeerItem] {
        try read("reading the kiosk's own items") { db in
            guard let own = try Self.ownPeerStream(db)?.stream else { return [] }
            return try PeerItemRecord.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM peer_items WHERE device = ? AND epoch = ? AND sequence > ?
                        ORDER BY sequence LIMIT ?
                        """), arguments: [own.device, own.epoch, sequence, limit]
            ).map(\.item)
        }
    }
}
