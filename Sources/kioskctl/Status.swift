import ArgumentParser
import Foundation
import KioskRuntime
import KioskStore

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the roster size, pending check-ins and the latest audit log entries.")

    @Option(help: "The kiosk's configuration file.")
    var config = "kiosk.conf"

    @Option(help: "How many audit log entries to show (0-10000).")
    var last = 20

    func validate() throws {
        guard (0...10_000).contains(last) else {
            throw ValidationError("--last must be from 0 to 10000 entries, found \(last)")
        }
    }

    func run() throws {
        let settings = try ConfigurationFile.load(config)
        let store = try SQLiteDoorStore(path: settings.resolve(settings.database), mode: .openExisting)
        print(
            "door \(settings.door), event \(settings.event): \(try store.guestCount(event: settings.event)) guests, "
                + "\(try store.checkIns(event: settings.event).count) checked in, \(try store.pendingCount()) pending sync"
        )
        let f = ISO8601DateFormatter()
        for a in try store.auditLog(limit: last) {
            print("\(f.string(from: a.at))  \(a.source.rawValue)  \(a.verdict)  \(a.guest?.text ?? "-")  \(a.reason)")
        }
    }
}
