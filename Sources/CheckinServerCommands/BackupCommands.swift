import ArgumentParser
import CheckinSQLite
import Foundation

/// `checkin-server backup --to FILE`: a consistent copy of the SQLite database while the server runs.
struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy the database, online, into a new file (SQLite's backup API; the server may keep running).",
        discussion: """
            The copy is one commit's state, checked by SQLite, made 0600, and written under its name only once \
            whole. It holds guests' personal data: keep it as safe as the database. The secrets key \
            (checkin-secrets.key) is not in it: back it up apart, or the signing keys in the copy cannot be used. \
            On PostgreSQL use pg_dump (/usr/share/doc/checkin-server/BACKUPS.md.gz).
            """)
    @OptionGroup var options: DatabaseOption
    @Option(help: "The backup file to make (refused if it exists).") var to: String

    func run() async throws {
        guard options.postgresURL == nil else {
            throw ValidationError(
                "backup copies the SQLite database; for PostgreSQL use pg_dump --format=custom and pg_restore "
                    + "(/usr/share/doc/checkin-server/BACKUPS.md.gz)")
        }
        guard FileManager.default.fileExists(atPath: options.database) else {
            throw ValidationError("there is no database \(options.database) to back up: give --database")
        }
        let repository = try options.openSQLite(secrets: try options.secretsKey())
        do {
            let summary = try repository.backup(to: to)
            CommandIO.value(to)
            note(
                "backed up \(options.database) to \(to): \(Self.describe(summary)); keep the secrets key apart "
                    + "from it")
        } catch let error as BackupError {
            throw ValidationError("\(error)")
        }
    }

    static func describe(_ summary: BackupSummary) -> String {
        "\(summary.events) events, \(summary.guests) guests, \(summary.checkIns) check-ins, "
            + "\(summary.checkInEvents) check-in events, \(summary.bytes) bytes"
    }
}

/// `checkin-server restore --from FILE`: the database brought back from a backup.
struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Bring the SQLite database back from a file that `backup` made (stop the server first).",
        discussion: """
            The backup is checked (SQLite's check, a check-in server's schema, sealed under this secrets key) \
            before anything is written. An existing database is overwritten only with --replace. Kiosks upload \
            again what the server acknowledged after the backup was made only if their queue still holds it: \
            import a kiosk's queue export (kioskctl queue export, checkin-server import-queue) for those.
            """)
    @OptionGroup var options: DatabaseOption
    @Option(help: "The backup file.") var from: String
    @Flag(help: "Overwrite the existing database (what it holds now is lost).") var replace = false

    func run() async throws {
        guard options.postgresURL == nil else {
            throw ValidationError(
                "restore writes an SQLite database; for PostgreSQL use pg_restore "
                    + "(/usr/share/doc/checkin-server/BACKUPS.md.gz)")
        }
        do {
            let summary = try SQLiteCheckinRepository.restore(
                from: from, to: options.database, secrets: try options.secretsKey(), replacing: replace)
            CommandIO.value(options.database)
            note("restored \(options.database) from \(from): \(Backup.describe(summary))")
        } catch let error as BackupError {
            throw ValidationError("\(error)")
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("cannot restore \(from) into \(options.database): \(error)")
        }
    }
}
