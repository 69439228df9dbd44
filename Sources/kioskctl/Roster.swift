import ArgumentParser
import Foundation
import KioskRuntime
import KioskStore

struct Roster: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage the kiosk's local roster.", subcommands: [Import.self])

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Load a roster from CSV for a standalone event (no server).",
            discussion: """
                Header row with columns guest_id,name and optionally email,party_size,status,notes. \
                The tenant, event and database are those of the configuration. A bad row loads nothing.
                """)

        @Option(help: "The kiosk's configuration file.")
        var config = "kiosk.conf"

        @Option(help: "The CSV file.")
        var csv: String

        func run() throws {
            let settings = try ConfigurationFile.load(config)
            guard let data = FileManager.default.contents(atPath: csv) else {
                throw ValidationError("cannot read \(csv)")
            }
            let path = settings.resolve(settings.database)
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let store = try SQLiteDoorStore(path: path, mode: .createIfMissing)
            do {
                let n = try store.importRoster(csvBytes: [UInt8](data), tenant: settings.tenant, event: settings.event)
                print(
                    "imported \(n) guests into \(path) (event \(settings.event)); \(try store.guestCount(event: settings.event)) on the roster"
                )
            } catch {
                throw ValidationError("\(csv): \(error)")
            }
        }
    }
}
