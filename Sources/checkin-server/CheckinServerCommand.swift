import ArgumentParser

@main
struct CheckinServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkin-server",
        abstract: "The check-in server: roster to the kiosks, check-ins from them (docs/SYNC.md).",
        discussion: """
            Admin subcommands work straight on the database file; each prints the value it made on standard
            output (an id, a code) and a sentence about it on standard error, so scripts can capture the value.
            """,
        subcommands: [
            Serve.self, AdminToken.self, CreateTenant.self, CreateEvent.self, ImportGuests.self, AddGuest.self,
            CancelGuest.self, EnrolmentCode.self, Export.self, Devices.self, RevokeDevice.self, Audit.self,
        ])
}

/// `--database`, shared by every subcommand.
struct DatabaseOption: ParsableArguments {
    @Option(name: .long, help: "The SQLite database file (created if missing).")
    var database: String = "checkin.db"
}
