internal import GRDB
import KioskCore

import struct Foundation.Data

/// A row of the `peer_items` table: an item of this kiosk's or a peer's, read and written by column name.
struct PeerItemRecord: FetchableRecord {
    static let databaseTableName = "peer_items"

    /// The columns an insert names, in the order of `arguments`.
    static let insertColumns =
        "device, epoch, sequence, event, guest_id, kind, door, at, arrived, source, reverts, clock_offset_ms, received_at, signature"

    var item: PeerItem

    init(row: Row) throws {
        let kindText = try row.text(Column("kind"))
        guard let kind = PeerItem.Kind(rawValue: kindText) else {
            throw row.corrupt("peer item kind '\(kindText)' is not check_in or revert")
        }
        item = PeerItem(
            device: try row.text(Column("device")), epoch: try row.text(Column("epoch")),
            sequence: try row.decode(Int64.self, forColumn: Column("sequence")),
            event: UInt32(truncatingIfNeeded: try row.decode(Int64.self, forColumn: Column("event"))),
            guest: try row.text(Column("guest_id")), kind: kind, door: try row.text(Column("door")),
            at: try row.decode(Int64.self, forColumn: Column("at")), arrived: try row.int(Column("arrived")),
            source: try row.text(Column("source")),
            reverts: try row.decode(Int64?.self, forColumn: Column("reverts")),
            clockOffsetMs: try row.decode(Int64?.self, forColumn: Column("clock_offset_ms")))
        if let signature = try row.decode(Data?.self, forColumn: Column("signature")) {
            item.signature = Array(signature)
        }
    }

    /// The item's values in the order of `insertColumns`, received at `receivedAt` (ms since 1970).
    static func arguments(_ item: PeerItem, receivedAt: Int64) -> StatementArguments {
        [
            item.device, item.epoch, item.sequence, Int64(item.event), item.guest, item.kind.rawValue, item.door,
            item.at, item.arrived, item.source, item.reverts, item.clockOffsetMs, receivedAt,
            item.signature.map { Data($0) },
        ]
    }
}
