/// How the organizer's guest list is ordered.
public enum GuestOrder: String, CaseIterable, Sendable {
    /// By name (case ignored), then by code.
    case name
    /// Not checked in first, then checked in, then cancelled; by name within each.
    case status
    /// The latest arrival first, then those not checked in; by name among equals.
    case arrival
}

/// Which guests a list shows, and in which order: the database pages and counts them, so a page costs the
/// same for an event of 300 guests as for one of 100,000.
public struct GuestQuery: Equatable, Sendable {
    /// As `CheckinRepository.searchGuests`: name or e-mail containing it (accents and case ignored), or a code
    /// starting with it; every guest when empty.
    public var text: String
    public var order: GuestOrder
    /// Only active guests not checked in (the no-shows, once the event has started).
    public var notArrivedOnly: Bool

    public init(text: String = "", order: GuestOrder = .name, notArrivedOnly: Bool = false) {
        self.text = text
        self.order = order
        self.notArrivedOnly = notArrivedOnly
    }
}

/// One page of a guest list, and how many guests (and people) the whole list holds.
public struct GuestListPage: Equatable, Sendable {
    public var guests: [Guest]
    public var total: Int
    /// The party sizes of every guest of the list, added up.
    public var people: Int

    public init(guests: [Guest], total: Int, people: Int) {
        self.guests = guests
        self.total = total
        self.people = people
    }
}
