import struct Foundation.Date

/// What a check-in list admits, beyond a valid pass of its event (issue 51; pretix's check-in list rules,
/// alf.io's check-in window per category). Plain values: the door and the server evaluate the same rules with the
/// same code (`decide`), each with its own clock.
public struct ListRules: Sendable, Equatable {
    /// The ticket types admitted; nil admits every type.
    public var ticketTypes: Set<String>?
    /// The list opens at this instant (nil: always open until `closesAt`).
    public var opensAt: Date?
    /// The list closes at this instant (nil: never).
    public var closesAt: Date?
    /// At most so many entries in all (nil: no limit).
    public var maximumEntries: Int?
    /// At most so many entries per day of the event's time zone (nil: no limit).
    public var maximumEntriesPerDay: Int?
    /// At least so many minutes since the guest's last entry (nil: no wait).
    public var minimumMinutesBetweenEntries: Int?
    /// Whether a guest who left (an exit scan) may come in again.
    public var allowsReentry: Bool

    public init(
        ticketTypes: Set<String>? = nil, opensAt: Date? = nil, closesAt: Date? = nil, maximumEntries: Int? = nil,
        maximumEntriesPerDay: Int? = nil, minimumMinutesBetweenEntries: Int? = nil, allowsReentry: Bool = true
    ) {
        self.ticketTypes = ticketTypes
        self.opensAt = opensAt
        self.closesAt = closesAt
        self.maximumEntries = maximumEntries
        self.maximumEntriesPerDay = maximumEntriesPerDay
        self.minimumMinutesBetweenEntries = minimumMinutesBetweenEntries
        self.allowsReentry = allowsReentry
    }

    /// Every type admitted, always open, no limits: what an event's first list holds, so that an event set up
    /// before lists existed keeps working unchanged.
    public static let everyone = ListRules()
}
