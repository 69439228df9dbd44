import ArgumentParser
import CheckinPostgres
import PostgresNIO

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
            Serve.self, AdminToken.self, CreateTenant.self, CreateOrganizer.self, CreateEvent.self, ImportGuests.self,
            AddGuest.self,
            CancelGuest.self, EnrolmentCode.self, Export.self, Devices.self, RevokeDevice.self, Audit.self,
            SigningKeys.self, WebhookSecretCommand.self, OfflineAlertsCommand.self, DoubleEntries.self,
        ])
}

/// `--database` or `--postgres`, shared by every subcommand.
struct DatabaseOption: ParsableArguments {
    @Option(name: .long, help: "The SQLite database file (created if missing).")
    var database: String = "checkin.db"
    @Option(
        name: .long,
        help:
            "A PostgreSQL URL (postgres://user:password@host:5432/database) instead of SQLite; several servers may share it."
    )
    var postgres: String?

    func validate() throws {
        if let postgres, PostgresClient.Configuration(url: postgres) == nil {
            throw ValidationError(
                "--postgres '\(postgres)' is not a URL such as postgres://user:password@127.0.0.1:5432/checkin")
        }
    }

    /// What the logs say the server stores in (never the password).
    var storeDescription: String {
        guard let postgres, let configuration = PostgresClient.Configuration(url: postgres) else { return database }
        return "PostgreSQL \(configuration.username)@\(configuration.host ?? ""):\(configuration.port ?? 5432)/"
            + (configuration.database ?? "")
    }
}
