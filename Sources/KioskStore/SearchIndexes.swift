internal import GRDB

/// The roster's search indexes (by folded name, by folded e-mail, and the name words by guest), as migrations 1
/// and 2 create them. A first download into an event with no guests drops them at its first page and builds them
/// again, each by one sort, at its last: inserted row by row, 100,000 guests' names, e-mails and word rows land
/// all over them. Until then a name search reads the table (the event's guests are not admitted before the
/// download completes anyway). Opening the store builds any that are missing, so a download cut off by a restart
/// goes on with its indexes.
enum SearchIndexes {
    static let all: [(name: String, on: String)] = [
        ("roster_by_name", "roster (event, name_key)"),
        ("roster_by_email", "roster (event, email_key)"),
        ("roster_words_by_guest", "roster_words (event, guest_id)"),
    ]

    static func drop(_ db: Database) throws {
        for index in all { try db.execute(sql: "DROP INDEX IF EXISTS \(index.name)") }
    }

    /// Whether any of them is missing (a read: opening the store takes the write lock only to build them).
    static func anyMissing(_ db: Database) throws -> Bool {
        let present = try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'")
        return all.contains { !present.contains($0.name) }
    }

    /// Builds those that are missing (nothing to do, and no schema change, when all are there).
    static func create(_ db: Database) throws {
        for index in all { try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(index.name) ON \(index.on)") }
    }
}
