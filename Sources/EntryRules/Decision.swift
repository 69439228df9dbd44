import struct Foundation.Date

/// The rules that can refuse an entry, by the names the kiosk's JSON lines and the audit use (`rule`).
public enum Rule: String, Sendable, Codable, CaseIterable {
    case ticketType = "ticket_type"
    case window
    case maximumEntries = "max_entries"
    case maximumPerDay = "max_per_day"
    case minimumInterval = "min_interval"
    case noReentry = "no_reentry"
}

/// What the rules of a list decide for one scan.
public enum Decision: Sendable, Equatable {
    /// Let the guest in (an entry is recorded).
    case admit
    /// The guest is inside already (an entry with no exit after it): today's "already checked in".
    case alreadyInside(since: Date)
    /// Let the guest out (an exit is recorded); `wasInside` is false for an exit with no entry before it, which is
    /// recorded all the same (a door never holds a guest in) and counted by no "inside now".
    case exit(wasInside: Bool)
    /// A rule refuses the entry; `reason` is what the door shows ("VIP lounge opens at 18:00").
    case refused(Rule, reason: String)
}
