import ArgumentParser
import CheckinPostgres
import Foundation
import PostgresNIO

/// The `checkin-server` binary's commands (its `main.swift` only calls `main()`): a library, so that the tests
/// run the admin commands in process without linking the executable's module.
public struct CheckinServerCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "checkin-server",
        abstract: "The check-in server: roster to the kiosks, check-ins from them (docs/SYNC.md).",
        discussion: """
            Admin subcommands work straight on the database file; each prints the value it made on standard
            output (an id, a code) and a sentence about it on standard error, so scripts can capture the value.
            """,
        subcommands: [
            Serve.self, AdminToken.self, CreateTenant.self, CreateOrganizer.self, CreateEvent.self, ImportGuests.self,
            AddGuest.self,
            CancelGuest.self, EnrolmentCode.self, Export.self, Devices.self, RevokeDevice.self, UnlockOrganizer.self,
            SetOrganizerPassword.self,
            Audit.self,
            SigningKeys.self, WebhookSecretCommand.self, OfflineAlertsCommand.self, DoubleEntries.self, Backup.self,
            Restore.self, ImportQueue.self, CreateList.self, ChangeList.self, ListsCommand.self, SetGate.self,
            InsideCommand.self,
        ])

    public init() {}

    /// The binary's whole run (`main.swift`), exiting with the command's status. Not named `main`: from another
    /// module ArgumentParser's own `main()` was called instead. Everything this process writes (database, WAL,
    /// secrets key, pass images) is its own user's only, whatever umask the shell or the unit gave it; each of
    /// those files is also made 0600 by itself.
    public static func runProcess() async -> Never {
        umask(0o077)
        do {
            try await execute(nil)
        } catch {
            exit(withError: error)
        }
        exit()
    }

    /// Parses `arguments` (nil: the process's own) and runs the command they name; the binary's `main` and the
    /// tests' in-process `run(_:input:)` both go through it.
    static func execute(_ arguments: [String]?) async throws {
        var command = try parseAsRoot(arguments)
        if var command = command as? AsyncParsableCommand {
            try await command.run()
        } else {
            try command.run()
        }
    }
}

/// `--database` or `--postgres`, and the secrets key, shared by every subcommand (`DatabaseOption+Open.swift`
/// opens them).
struct DatabaseOption: ParsableArguments {
    @Option(name: .long, help: "The SQLite database file (created if missing, 0600).")
    var database: String = "checkin.db"
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A PostgreSQL URL (postgres://user@host:5432/database) instead of SQLite; several servers may share it.",
            discussion: """
                Or set CHECKIN_POSTGRES_URL. Keep the password out of the command line (ps shows it to every user): \
                --postgres-password-file, or PGPASSWORD. Without sslmode= a loopback host gets sslmode=prefer, any \
                other verify-full.
                """))
    var postgres: String?
    @Option(
        name: .customLong("postgres-password-file"),
        help: "A file holding the PostgreSQL password (else PGPASSWORD, else the URL's).")
    var postgresPasswordFile: String?
    @Option(
        name: .customLong("postgres-ca-file"),
        help: "PEM CA certificates to verify the PostgreSQL server with (sslmode verify-full by default).")
    var postgresCAFile: String?
    @Option(
        name: .customLong("secrets-key-file"),
        help: ArgumentHelp(
            "The key the tenants' signing keys and webhook secrets are sealed with (made, 0600, if missing).",
            discussion: """
                Default: the systemd credential checkin-secrets-key if $CREDENTIALS_DIRECTORY has it, else \
                checkin-secrets.key beside the database. Back it up apart from the database: without it the \
                stored keys cannot be used.
                """))
    var secretsKeyFile: String?

    func validate() throws {
        if let postgres = postgresURL {
            do {
                _ = try PostgresClient.Configuration(postgresURL: postgres, caFile: postgresCAFile)
            } catch {
                throw ValidationError("the PostgreSQL URL '\(Self.redacted(postgres))' cannot be used: \(error)")
            }
        }
    }

    /// `--postgres`, else `CHECKIN_POSTGRES_URL`.
    var postgresURL: String? {
        postgres ?? ProcessInfo.processInfo.environment["CHECKIN_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// What the logs say the server stores in (never the password).
    var storeDescription: String {
        guard let postgres = postgresURL, let configuration = PostgresClient.Configuration(url: postgres) else {
            return database
        }
        return "PostgreSQL \(configuration.username)@\(configuration.host ?? ""):\(configuration.port ?? 5432)/"
            + (configuration.database ?? "")
    }

    /// The URL with its password replaced by `***`.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }
}
