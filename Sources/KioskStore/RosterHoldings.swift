internal import GRDB
import KioskCore
import SignedRecords

/// What the kiosk already holds of a roster page's guests: each roster row's server version, an item still in
/// the sync queue, a tombstone, a check-in. Read with one query per table (per 500 guests) where a probe per
/// row cost a statement for each guest of a 100,000-guest download; the page's apply keeps it up to date
/// as it writes, so a guest twice in a page is applied as if probed again.
struct RosterHoldings {
    struct Key: Hashable {
        var event: Int64
        var id: String

        init(event: Int64, id: String) {
            self.event = event
            self.id = id
        }

        init(_ guest: RosterGuest) { self.init(event: Int64(guest.event.rawValue), id: guest.guest.text) }
    }

    var versions: [Key: Int64] = [:]
    var queued: Set<Key> = []
    var tombstoned: Set<Key> = []
    var checkedIn: Set<Key> = []
    /// The queue sequence of each check-in this kiosk made (`check_ins.queue_sequence`).
    var ownScans: [Key: Int64] = [:]

    /// Guests per query: with the event, under the 999 bound parameters of SQLite before 3.32.
    static let batch = 500

    init(_ db: Database, guests: [RosterGuest]) throws {
        for (event, keys) in Dictionary(grouping: guests.map(Key.init), by: \.event) {
            // A table with nothing for the event (the queue, tombstones and check-ins in a first download) is
            // not asked about each guest: an IN list of 500 costs about a millisecond per table and page.
            let tables = try ["sync_queue", "tombstones", "check_ins"].filter { table in
                try Bool.fetchOne(
                    db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE event = ?)"),
                    arguments: [event]) ?? false
            }
            for start in stride(from: 0, to: keys.count, by: Self.batch) {
                let ids = keys[start..<min(start + Self.batch, keys.count)].map(\.id)
                let list = Array(repeating: "?", count: ids.count).joined(separator: ", ")
                // Database values, not `any DatabaseValueConvertible`: an array of those is cast value by value.
                let arguments = StatementArguments([event.databaseValue] + ids.map(\.databaseValue))
                let rows = try Row.fetchCursor(
                    db.cachedStatement(
                        sql: "SELECT guest_id, version FROM roster WHERE event = ? AND guest_id IN (\(list))"),
                    arguments: arguments)
                while let row = try rows.next() { versions[Key(event: event, id: row["guest_id"])] = row["version"] }
                func held(in table: String) throws -> [Key] {
                    try String.fetchAll(
                        db.cachedStatement(
                            sql: "SELECT DISTINCT guest_id FROM \(table) WHERE event = ? AND guest_id IN (\(list))"),
                        arguments: arguments
                    ).map { Key(event: event, id: $0) }
                }
                if tables.contains("sync_queue") { queued.formUnion(try held(in: "sync_queue")) }
                if tables.contains("tombstones") { tombstoned.formUnion(try held(in: "tombstones")) }
                if tables.contains("check_ins") {
                    let rows = try Row.fetchCursor(
                        db.cachedStatement(
                            sql: """
                                SELECT guest_id, queue_sequence FROM check_ins WHERE event = ? AND guest_id IN (\(list))
                                """),
                        arguments: arguments)
                    while let row = try rows.next() {
                        let key = Key(event: event, id: row["guest_id"])
                        checkedIn.insert(key)
                        if let sequence: Int64 = row["queue_sequence"] { ownScans[key] = sequence }
                    }
                }
            }
        }
    }
}
