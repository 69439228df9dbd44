internal import GRDB

/// A row of `roster_words`: one word of a guest's folded name, for word-prefix search.
struct RosterWordRecord: PersistableRecord {
    static let databaseTableName = "roster_words"

    var event: Int64
    var word: String
    var guestID: String

    func encode(to container: inout PersistenceContainer) {
        container["event"] = event
        container["word"] = word
        container["guest_id"] = guestID
    }
}
