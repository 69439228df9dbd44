import ArgumentParser
import CheckinCore
import Foundation
import PassFormat
import WireAPI

/// `checkin-server double-entries --event N`: the guests admitted at two doors (or twice) while the doors were
/// offline, the check-in that counts and the other admit, with the gap between them.
struct DoubleEntries: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "double-entries",
        abstract:
            "List the event's double entries: guest, the check-in's door and time, the other door and time, the gap.",
        discussion: """
            A double entry is a guest admitted by two doors (or twice) while they could not reach the server. The \
            earliest scan (clock-corrected) is the check-in; the other is kept as superseded. One line per other \
            admit, tab-separated: guest id, name, check-in door, check-in time, other door, other time, gap in \
            seconds. --json prints the export's double_entry records instead.
            """)
    @OptionGroup var options: DatabaseOption
    @Option(help: "The event's id.") var event: UInt32
    @Flag(help: "JSON lines (the export's double_entry records).") var json = false

    func run() async throws {
        if json {
            let entries = try await withAdmin(options) { try await $0.doubleEntryLines(event: EventID(event)) }
            for line in entries { CommandIO.value(line) }
            note("\(entries.count) double \(entries.count == 1 ? "entry" : "entries")")
            return
        }
        let entries = try await withAdmin(options) { try await $0.doubleEntries(event: EventID(event)) }
        for entry in entries {
            CommandIO.value(
                [
                    entry.guest.text, entry.guestName, entry.checkInDoor, APITime.text(entry.checkInAt),
                    entry.otherDoor,
                    APITime.text(entry.otherAt), String(format: "%.0f", entry.gapSeconds),
                ].map(Self.field).joined(separator: "\t"))
        }
        note("\(entries.count) double \(entries.count == 1 ? "entry" : "entries") at event \(event)")
    }

    /// A field of the tab-separated output: a tab or line break inside a name or a door becomes a space, so
    /// each entry stays one line of seven fields.
    static func field(_ text: String) -> String {
        String(
            String.UnicodeScalarView(text.unicodeScalars.map { CharacterSet.controlCharacters.contains($0) ? " " : $0 })
        )
    }
}
