import EntryRules

/// An event's lists as a batch of scans sees them (read once per batch): which is the first, and which ids are
/// the event's.
public struct EventLists: Sendable, Equatable {
    public let first: ListID?
    public let ids: Set<ListID>

    /// `ordered`: by id, the first first.
    public init(_ ordered: [ListID]) {
        first = ordered.first
        ids = Set(ordered)
    }

    /// The list a scan is for: its own if it is the event's, the first when it names none (a kiosk from before
    /// lists); nil for a list of no event or of another one.
    public func resolve(_ list: ListID?) -> ListID? {
        guard let list else { return first }
        return ids.contains(list) ? list : nil
    }
}
