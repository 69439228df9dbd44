import ArgumentParser
import Foundation
import KioskRuntime
import KioskStore
import KioskSync

struct Roster: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage the kiosk's local roster.", subcommands: [Import.self, Refresh.self])

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
            let store = try SQLiteDoorStore(configuration: settings, mode: .createIfMissing)
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

    struct Refresh: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Bring the roster up to date with the server now (an enrolled kiosk).",
            discussion: """
                Finishes the first download if it was cut (from the last page applied), then fetches every guest \
                changed since the last refresh: cancellations, walk-ins, check-ins at other doors.
                """)

        @Option(help: "The kiosk's configuration file.")
        var config = "kiosk.conf"

        func run() async throws {
            let settings = try ConfigurationFile.load(config)
            let store = try SQLiteDoorStore(configuration: settings, mode: .openExisting)
            let report = try await SyncOnce.refreshRoster(configuration: settings, store: store) { state in
                if !state.complete || state.total != nil {
                    FileHandle.standardError.write(
                        Data("roster \(state.fetched)/\(state.total.map(String.init) ?? "?")\n".utf8))
                }
            }
            print(report)
        }
    }
}
