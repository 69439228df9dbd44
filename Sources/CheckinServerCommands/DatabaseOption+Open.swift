import ArgumentParser
import CheckinAdmin
import CheckinPostgres
import CheckinSQLite
import CheckinServer
import Foundation
import PostgresNIO

extension DatabaseOption {
    /// The key the stored secrets are sealed with (`SecretsKeySource`: the option, the systemd credential, or
    /// `checkin-secrets.key` beside the database, made on the first start).
    func secretsKey() throws -> SecretsKey {
        let folder = postgresURL == nil ? (database as NSString).deletingLastPathComponent : ""
        let source = SecretsKeySource.choose(
            explicit: secretsKeyFile,
            defaultFile: (folder.isEmpty ? "" : folder + "/") + SecretsKeySource.defaultFileName,
            environment: ProcessInfo.processInfo.environment)
        do {
            let (key, created) = try source.load()
            if created {
                note(
                    "checkin-server: made a new secrets key, \(source) (0600): back it up apart from the database; "
                        + "without it the signing keys and webhook secrets stored in the database cannot be used")
            }
            return key
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// The PostgreSQL client's configuration (nil for SQLite): the URL of `--postgres` or
    /// `CHECKIN_POSTGRES_URL`, the password from `--postgres-password-file`, else the URL, else `PGPASSWORD`.
    func postgresConfiguration() throws -> PostgresClient.Configuration? {
        guard let url = postgresURL else { return nil }
        var password: String?
        if let postgresPasswordFile {
            guard let text = try? String(contentsOfFile: postgresPasswordFile, encoding: .utf8) else {
                throw ValidationError("cannot read --postgres-password-file \(postgresPasswordFile)")
            }
            password = text.trimmingCharacters(in: .newlines)
        } else if !PostgresClient.Configuration.hasPassword(url) {
            password = ProcessInfo.processInfo.environment["PGPASSWORD"]
        }
        if postgres != nil, PostgresClient.Configuration.hasPassword(url) {
            note(
                "checkin-server: warning: the PostgreSQL password is on the command line, where ps shows it to every "
                    + "user; use --postgres-password-file, PGPASSWORD or CHECKIN_POSTGRES_URL instead")
        }
        do {
            return try PostgresClient.Configuration(postgresURL: url, password: password, caFile: postgresCAFile)
        } catch {
            throw ValidationError("the PostgreSQL URL '\(Self.redacted(url))' cannot be used: \(error)")
        }
    }

    /// The SQLite repository on `--database`, its secrets sealed with `secrets`.
    func openSQLite(secrets: SecretsKey) throws -> SQLiteCheckinRepository {
        do {
            return try SQLiteCheckinRepository(path: database, secrets: secrets)
        } catch {
            throw ValidationError("cannot open the database \(database): \(error)")
        }
    }
}
