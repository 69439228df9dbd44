import ArgumentParser
import CheckinAdmin
import CheckinCore
import EntryRules
import Foundation
import PassFormat
import WireAPI

/// The rules a list is made or changed with, the same options for `create-list` and `change-list`.
struct ListOptions: ParsableArguments {
    @Option(help: "The list's name, as the doors show it (VIP lounge).") var name: String
    @Option(
        name: .customLong("ticket-types"),
        help: "The ticket types it admits, comma-separated (General,VIP). Default: every type.")
    var ticketTypes: String?
    @Option(name: .customLong("opens-at"), help: "No entry before this, RFC 3339 (2026-12-01T18:00:00+01:00).")
    var opensAt: String?
    @Option(name: .customLong("closes-at"), help: "No entry from this, RFC 3339.") var closesAt: String?
    @Option(name: .customLong("max-entries"), help: "At most so many entries of a guest in all.") var maxEntries: Int?
    @Option(name: .customLong("max-per-day"), help: "At most so many entries a day, in the event's time zone.")
    var maxPerDay: Int?
    @Option(name: .customLong("min-minutes"), help: "At least so many minutes since the guest's last entry.")
    var minMinutes: Int?
    @Flag(name: .customLong("no-reentry"), help: "A guest who left through an exit door may not come back.")
    var noReentry = false
    @Option(help: "Warn the organizer when so many are inside at once.") var capacity: Int?

    func input() throws -> ListInput {
        ListInput(
            name: name,
            ticketTypes: ticketTypes.map {
                $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            },
            opensAt: try opensAt.map { try parseTime($0, "--opens-at") },
            closesAt: try closesAt.map { try parseTime($0, "--closes-at") }, maxEntries: maxEntries,
            maxPerDay: maxPerDay, minMinutesBetweenEntries: minMinutes, allowsReentry: !noReentry, capacity: capacity)
    }
}

struct CreateList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-list",
        abstract: "Make a check-in list of an event (a door, an area); prints its id.",
        discussion: """
            A guest is checked in once per list. Give a kiosk the list with enrolment-code --list or set-gate.
            """)
    @OptionGroup var options: DatabaseOption
    @Option(help: "The event's id.") var event: UInt32
    @OptionGroup var list: ListOptions

    func run() async throws {
        let input = try list.input()
        let made = try await withAdmin(options) { try await $0.createList(input, event: EventID(event)) }
        CommandIO.value(made.id)
        note("made check-in list \(made.id) '\(made.name)' of event \(event): \(ListsCommand.summary(made))")
    }
}

struct ChangeList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change-list",
        abstract:
            "Give a check-in list new rules (all of them: what is not given no longer limits); prints its version.")
    @OptionGroup var options: DatabaseOption
    @Option(help: "The event's id.") var event: UInt32
    @Option(help: "The list's id (see lists).") var id: UInt32
    @OptionGroup var list: ListOptions

    func run() async throws {
        let input = try list.input()
        let changed = try await withAdmin(options) {
            try await $0.updateList(ListID(id), input, event: EventID(event))
        }
        CommandIO.value(changed.version)
        note(
            "check-in list \(changed.id) '\(changed.name)' is version \(changed.version): \(ListsCommand.summary(changed))"
        )
    }
}

struct ListsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lists", abstract: "An event's check-in lists: id, name, version, rules (tab-separated).")
    @OptionGroup var options: DatabaseOption
    @Option(help: "The event's id.") var event: UInt32

    func run() async throws {
        let lists = try await withAdmin(options) { try await $0.lists(event: EventID(event)) }
        for list in lists {
            CommandIO.value(
                [String(list.id.rawValue), list.name, String(list.version), Self.summary(list)].joined(separator: "\t"))
        }
        note("\(lists.count) check-in lists of event \(event)")
    }

    static func summary(_ list: CheckInList) -> String { list.rulesSummary { APITime.text($0) } }
}

struct InsideCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inside",
        abstract: "Who is inside now: per list, the guests whose latest scan there is an entry.",
        discussion: """
            Without --list: one line per list (id, name, inside, capacity or -), tab-separated. With --list: that \
            list's number only. A list at or over its capacity is named on standard error.
            """)
    @OptionGroup var options: DatabaseOption
    @Option(help: "The event's id.") var event: UInt32
    @Option(help: "One list's id (see lists).") var list: UInt32?

    func run() async throws {
        let counts = try await withAdmin(options) {
            try await $0.inside(event: EventID(event), list: list.map(ListID.init))
        }
        for count in counts {
            if list != nil {
                CommandIO.value(count.inside)
            } else {
                CommandIO.value(
                    [
                        String(count.list.id.rawValue), count.list.name, String(count.inside),
                        count.list.capacity.map(String.init) ?? "-",
                    ].joined(separator: "\t"))
            }
            if count.full {
                note("\(count.list.name) is at its capacity: \(count.inside) inside of \(count.list.capacity ?? 0)")
            }
        }
    }
}

struct SetGate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-gate",
        abstract: "Move an enrolled kiosk to another list or direction, without enrolling it again.",
        discussion: "The kiosk learns it with its next sync and shows it on its status line.")
    @OptionGroup var options: DatabaseOption
    @Option(help: "The event's id.") var event: UInt32
    @Option(help: "The device's id (see devices).") var device: String
    @Option(help: "The list's id (see lists). Default: the event's first.") var list: UInt32?
    @Option(help: "entry or exit.") var direction = "entry"

    func run() async throws {
        let direction = try Self.direction(direction)
        let gate = try await withAdmin(options) {
            try await $0.setGate(
                device: device, event: EventID(event), list: list.map(ListID.init), direction: direction)
        }
        CommandIO.value(device)
        note(
            "device \(device) now serves \(gate.list.map { "list \($0)" } ?? "the first list"), \(gate.direction.rawValue)"
        )
    }

    static func direction(_ text: String) throws -> Direction {
        guard let direction = Direction(rawValue: text) else {
            throw ValidationError("--direction '\(text)' is neither entry nor exit")
        }
        return direction
    }
}
