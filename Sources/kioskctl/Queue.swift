import ArgumentParser
import Foundation
import KioskRuntime
import KioskStore
import KioskSync
import SystemCalls
import WireAPI

struct Queue: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The check-ins waiting for the server.", subcommands: [Export.self])

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the queue to a file the server imports (checkin-server import-queue).",
            discussion: """
                For a kiosk that cannot reach the server: carry the file over and import it there. Nothing leaves \
                the queue, and the server applies each check-in once whether it arrives from the file, from this \
                kiosk's own upload, or both. The file (0600) holds guest ids and times, no names: keep it as \
                safe as the kiosk.
                """)

        @Option(help: "The kiosk's configuration file.")
        var config = "kiosk.conf"

        @Option(help: "The file to write (refused if it exists).")
        var to: String

        func run() throws {
            let settings = try ConfigurationFile.load(config)
            let store = try SQLiteDoorStore(configuration: settings, mode: .openExisting)
            let export = try QueueExporter.export(configuration: settings, store: store, now: Date())
            let data = try APICoding.encoder().encode(export)
            guard try PrivateFile.createExclusively(Array(data), path: to) else {
                throw ValidationError("the file \(to) exists: give a new name or remove it first")
            }
            print(to)
            let reverts = export.items.filter { $0.kind == .revert }.count
            FileHandle.standardError.write(
                Data(
                    ("exported \(export.items.count) queued items (\(reverts) reverts) of device \(export.deviceId), "
                        + "door \(export.door), event \(export.event) to \(to): import them with checkin-server "
                        + "import-queue --file \(to)\n").utf8))
        }
    }
}
