import ArgumentParser
import KioskRuntime
import KioskStore
import KioskSync

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Upload the queued check-ins once, bring the roster up to date, and say what the server answered.")

    @Option(help: "The kiosk's configuration file.")
    var config = "kiosk.conf"

    func run() async throws {
        let settings = try ConfigurationFile.load(config)
        let store = try SQLiteDoorStore(configuration: settings, mode: .openExisting)
        let report = try await SyncOnce.run(configuration: settings, store: store)
        print(report.queue)
        if let roster = report.roster { print(roster) }
    }
}
