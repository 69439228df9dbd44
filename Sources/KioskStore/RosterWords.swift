internal import GRDB

/// The guests whose name words a transaction writes, made from their roster rows by one statement per event at
/// its end (`SearchKey.wordsSQL`): sorted as their table is, inside SQLite. (Sorting some 220,000 word rows of a
/// first download as Swift strings, and binding them, cost more than SQLite's inserts.)
struct RosterWords {
    private var ids: [Int64: [String]] = [:]

    /// The guest's words are made from its row as it stands at `write` (a guest twice in a page gets the later
    /// row's words).
    mutating func add(_ id: String, event: Int64) { ids[event, default: []].append(id) }

    func write(_ db: Database) throws {
        for (event, ids) in ids {
            // Guest ids are base32 text: nothing in them needs escaping in a JSON string.
            let list = "[" + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]"
            try db.cachedStatement(sql: SearchKey.wordsSQL).execute(arguments: [event, list])
        }
    }
}
