import KioskCore
import SignedRecords

/// A page of the server's roster with what the store derives from each row before writing it: the folded
/// name and e-mail. Built outside the store's writer, so the downloader prepares the next
/// page while the current one is applied (Foundation's folding of accented names was a tenth of the apply).
public struct PreparedRosterPage: Sendable {
    public let updates: [RosterUpdate]
    let keys: [SearchKeys]
    /// A page of a first download (the whole roster, page after page): into an event with no guests, its first
    /// page drops the search indexes and its last builds them again (`SearchIndexes`).
    public let firstDownload: Bool

    public init(_ updates: [RosterUpdate], firstDownload: Bool = false) {
        self.updates = updates
        self.firstDownload = firstDownload
        keys = updates.map { SearchKeys($0.guest) }
    }

    /// `pages` applied as one, in their order (a guest in two of them ends as the later row says).
    public init(joining pages: [PreparedRosterPage]) {
        updates = pages.flatMap(\.updates)
        keys = pages.flatMap(\.keys)
        firstDownload = pages.allSatisfy(\.firstDownload)
    }
}

/// A roster row's search keys (`SearchKey`): what `roster.name_key` and `roster.email_key` hold (its name words
/// are made from `name_key`, by SQL: `RosterWords`).
struct SearchKeys: Sendable {
    var name: String
    var email: String

    init(_ guest: RosterGuest) {
        name = SearchKey.fold(guest.name)
        email = SearchKey.fold(guest.email)
    }
}
