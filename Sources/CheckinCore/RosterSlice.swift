/// A page of a first download or of a delta, as a repository answers it. Both cursors are opaque strings
/// that the repository makes and reads back; the server passes them through.
public struct RosterSlice: Equatable, Sendable {
    public var guests: [Guest]
    /// The next page's cursor; nil on the last page.
    public var nextPage: String?
    /// The change cursor: as of the start of a first download, or after the rows of this delta page.
    public var changeCursor: String
    /// Guests in the whole first download (first download only).
    public var total: Int?

    public init(guests: [Guest], nextPage: String?, changeCursor: String, total: Int?) {
        self.guests = guests
        self.nextPage = nextPage
        self.changeCursor = changeCursor
        self.total = total
    }

    public var isComplete: Bool { nextPage == nil }
}
