import EntryRules
import Foundation
import PassFormat

/// A check-in list of an event (issue 51): the guests a set of doors admits, counted once per list, under the
/// list's rules. Every event has at least one, made with it and covering every ticket type
/// (`CheckInList.firstName`): a kiosk enrolled without a list serves it.
public struct CheckInList: Equatable, Sendable {
    public var id: ListID
    public var event: EventID
    public var name: String
    public var rules: ListRules
    /// So many inside at once warns the organizer (nil: no capacity).
    public var capacity: Int?
    /// One more at each change of the rules or the capacity; a door holds the version it decides with.
    public var version: Int
    public var createdAt: Date

    public init(
        id: ListID, event: EventID, name: String, rules: ListRules = .everyone, capacity: Int? = nil,
        version: Int = 1, createdAt: Date
    ) {
        self.id = id
        self.event = event
        self.name = name
        self.rules = rules
        self.capacity = capacity
        self.version = version
        self.createdAt = createdAt
    }

    /// The name of the list every event gets when it is made.
    public static let firstName = "Main entrance"
}

/// What an organizer gives to make or change a list (the server assigns the id and the version).
public struct NewCheckInList: Equatable, Sendable {
    public var name: String
    public var rules: ListRules
    public var capacity: Int?

    public init(name: String, rules: ListRules = .everyone, capacity: Int? = nil) {
        self.name = name
        self.rules = rules
        self.capacity = capacity
    }
}

/// Where a kiosk stands: the list it serves and which way it lets guests through (issue 51's gates). A device
/// with no list of its own serves its event's first list.
public struct Gate: Equatable, Sendable {
    public var list: ListID?
    public var direction: Direction

    public init(list: ListID? = nil, direction: Direction = .entry) {
        self.list = list
        self.direction = direction
    }

    /// The first list, entry: every kiosk enrolled before lists existed.
    public static let firstListEntry = Gate()
}
