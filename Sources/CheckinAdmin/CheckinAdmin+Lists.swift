import CheckinCore
import EntryRules
import Foundation
import PassFormat
import WireAPI

/// Check-in lists and gates (issue 51): the organizer's operations, shared by the command line, the admin API and
/// the pages. Each is audited.
extension CheckinAdmin {
    /// The bounds a list's numbers are held to: what a venue could mean, no more (a number at the edge of its
    /// type is refused here, before any rule adds to it).
    public enum ListBounds {
        public static let nameLength = 1...80
        public static let ticketTypeLength = 1...80
        public static let ticketTypes = 0...200
        public static let entries = 1...100_000
        public static let entriesPerDay = 1...1_000
        /// A year in minutes.
        public static let minutesBetweenEntries = 1...527_040
        public static let capacity = 1...10_000_000
    }

    /// A new list of the event (`create-list`, `POST /v1/admin/events/{id}/lists`, the lists page).
    public func createList(_ input: ListInput, event: EventID) async throws -> CheckInList {
        let known = try await existingEvent(event)
        let values = try Self.listValues(input)
        do {
            let list = try await repository.createList(values, event: event, at: clock.now())
            try await audit(known.tenant, "list_created", "check-in list \(list.id) '\(list.name)' of event \(event)")
            return list
        } catch RepositoryError.duplicateList(let name) {
            throw Failure.invalid("event \(event) has a check-in list named '\(name)' already: choose another name")
        }
    }

    /// Gives a list of the event new values; doors learn the new version with their next sync.
    public func updateList(_ id: ListID, _ input: ListInput, event: EventID) async throws -> CheckInList {
        let known = try await existingEvent(event)
        _ = try await existingList(id, event: event)
        let values = try Self.listValues(input)
        do {
            let list = try await repository.updateList(id, values)
            try await audit(
                known.tenant, "list_changed", "check-in list \(list.id) '\(list.name)' now version \(list.version)")
            return list
        } catch RepositoryError.duplicateList(let name) {
            throw Failure.invalid("event \(event) has a check-in list named '\(name)' already: choose another name")
        }
    }

    /// The event's lists, the first one first.
    public func lists(event: EventID) async throws -> [CheckInList] {
        _ = try await existingEvent(event)
        return try await repository.lists(event: event)
    }

    /// The list, if it is the event's (another event's list is "not found", as the API answers it).
    public func existingList(_ id: ListID, event: EventID) async throws -> CheckInList {
        guard let list = try await repository.list(id), list.event == event else {
            throw Failure.notFound("check-in list \(id) of event \(event)")
        }
        return list
    }

    /// The list a device of `event` with `gate` serves: its own, or the event's first.
    public func servedList(_ gate: Gate, event: EventID) async throws -> CheckInList? {
        if let id = gate.list, let list = try await repository.list(id), list.event == event { return list }
        return try await repository.lists(event: event).first
    }

    /// Moves an enrolled device of the event to another list or direction, without enrolling again; the kiosk
    /// learns it with its next sync.
    public func setGate(device: String, event: EventID, list: ListID?, direction: Direction) async throws -> Gate {
        let known = try await existingEvent(event)
        guard try await repository.enrolledEvents(device: device).contains(event) else {
            throw Failure.notFound("device \(device) of event \(event)")
        }
        var name = "the first list"
        if let list { name = "check-in list \(try await existingList(list, event: event).id)" }
        let gate = Gate(list: list, direction: direction)
        try await repository.setGate(gate, device: device)
        try await audit(known.tenant, "gate_changed", "device \(device) now serves \(name), \(direction.rawValue)")
        return gate
    }

    /// Who is inside now at one list: guests whose latest passage there is an entry.
    public struct Inside: Sendable, Equatable {
        public var list: CheckInList
        public var inside: Int
        /// At or over the list's capacity.
        public var full: Bool { list.capacity.map { inside >= $0 } ?? false }
    }

    /// How many are inside now at each list of the event (or at `list` only), the first list first.
    public func inside(event: EventID, list: ListID? = nil) async throws -> [Inside] {
        var lists = try await self.lists(event: event)
        if let list { lists = [try await existingList(list, event: event)] }
        let counts = try await repository.inside(event: event)
        return lists.map { Inside(list: $0, inside: counts[$0.id] ?? 0) }
    }

    /// `entry` or `exit`, else a sentence naming both.
    public static func direction(_ text: String?) throws -> Direction {
        guard let text else { return .entry }
        guard let direction = Direction(rawValue: text) else {
            throw Failure.invalid("direction '\(text)' is neither 'entry' nor 'exit'")
        }
        return direction
    }

    /// The list's values from what the organizer gave, every number held to `ListBounds`.
    static func listValues(_ input: ListInput) throws -> NewCheckInList {
        let name = input.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard ListBounds.nameLength.contains(name.count) else {
            throw Failure.invalid("a check-in list's name must be 1 to \(ListBounds.nameLength.upperBound) characters")
        }
        var ticketTypes: Set<String>?
        if let given = input.ticketTypes {
            let names = given.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            guard ListBounds.ticketTypes.contains(names.count) else {
                throw Failure.invalid("a list admits at most \(ListBounds.ticketTypes.upperBound) ticket types")
            }
            for type in names where !ListBounds.ticketTypeLength.contains(type.count) {
                throw Failure.invalid(
                    "ticket type '\(type)' must be 1 to \(ListBounds.ticketTypeLength.upperBound) characters")
            }
            ticketTypes = names.isEmpty ? nil : Set(names)
        }
        if let opens = input.opensAt, let closes = input.closesAt, opens >= closes {
            throw Failure.invalid("the list must open before it closes")
        }
        func bounded(_ value: Int?, _ range: ClosedRange<Int>, _ what: String) throws -> Int? {
            guard let value else { return nil }
            guard range.contains(value) else {
                throw Failure.invalid("\(what) must be \(range.lowerBound) to \(range.upperBound), not \(value)")
            }
            return value
        }
        let rules = ListRules(
            ticketTypes: ticketTypes, opensAt: input.opensAt, closesAt: input.closesAt,
            maximumEntries: try bounded(input.maxEntries, ListBounds.entries, "the entries in all"),
            maximumEntriesPerDay: try bounded(input.maxPerDay, ListBounds.entriesPerDay, "the entries per day"),
            minimumMinutesBetweenEntries: try bounded(
                input.minMinutesBetweenEntries, ListBounds.minutesBetweenEntries, "the minutes between entries"),
            allowsReentry: input.allowsReentry ?? true)
        return NewCheckInList(
            name: name, rules: rules, capacity: try bounded(input.capacity, ListBounds.capacity, "the capacity"))
    }
}

extension ListInfo {
    public init(_ list: CheckInList) {
        self.init(
            id: list.id.rawValue, event: list.event.rawValue, name: list.name,
            ticketTypes: list.rules.ticketTypes?.sorted(), opensAt: list.rules.opensAt, closesAt: list.rules.closesAt,
            maxEntries: list.rules.maximumEntries, maxPerDay: list.rules.maximumEntriesPerDay,
            minMinutesBetweenEntries: list.rules.minimumMinutesBetweenEntries,
            allowsReentry: list.rules.allowsReentry, capacity: list.capacity, version: list.version)
    }
}

extension CheckInList {
    /// "ticket types Press, VIP; opens ...; at most 1 a day; no re-entry" for people, times written by `time`.
    public func rulesSummary(time: (Date) -> String) -> String {
        var parts = [
            rules.ticketTypes.map { "ticket types " + $0.sorted().joined(separator: ", ") } ?? "every ticket type"
        ]
        if let opens = rules.opensAt { parts.append("opens \(time(opens))") }
        if let closes = rules.closesAt { parts.append("closes \(time(closes))") }
        if let most = rules.maximumEntries { parts.append("at most \(most) entries") }
        if let most = rules.maximumEntriesPerDay { parts.append("at most \(most) a day") }
        if let minutes = rules.minimumMinutesBetweenEntries { parts.append("\(minutes) minutes between entries") }
        parts.append(rules.allowsReentry ? "re-entry" : "no re-entry")
        if let capacity { parts.append("capacity \(capacity)") }
        return parts.joined(separator: "; ")
    }
}
