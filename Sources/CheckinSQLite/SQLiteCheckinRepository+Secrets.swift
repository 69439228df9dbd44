import CheckinCore
import Foundation
import GRDB
import PassFormat

/// The secrets the database keeps sealed (`SecretSealing`): tenants' private signing keys, their guest-webhook
/// secrets, events' offline-alert webhook secrets.
extension SQLiteCheckinRepository {
    /// Migration 0007: every secret stored in plain text before is sealed in place (nothing is lost), the key's
    /// id is kept, and from then on the database itself refuses a plain secret (triggers), so no path of the
    /// code can store one by mistake.
    static func sealStoredSecrets(_ db: Database, _ secrets: any SecretSealing) throws {
        for row in try Row.fetchAll(db, sql: "SELECT key_id, tenant_id, private_key_pem FROM signing_key") {
            let stored: String = row["private_key_pem"]
            guard !SealedText.isSealed(stored) else { continue }
            let tenant = TenantID(UInt32(row["tenant_id"] as Int64))
            try db.execute(
                sql: "UPDATE signing_key SET private_key_pem = ? WHERE key_id = ?",
                arguments: [try secrets.seal(stored, context: .signingKey(tenant: tenant)), row["key_id"] as Int64])
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, tenant_id, secret FROM webhook_secret") {
            let stored: String = row["secret"]
            guard !SealedText.isSealed(stored) else { continue }
            let tenant = TenantID(UInt32(row["tenant_id"] as Int64))
            try db.execute(
                sql: "UPDATE webhook_secret SET secret = ? WHERE id = ?",
                arguments: [try secrets.seal(stored, context: .webhookSecret(tenant: tenant)), row["id"] as Int64])
        }
        for row in try Row.fetchAll(
            db, sql: "SELECT event_id, webhook_secret FROM offline_alert WHERE webhook_secret IS NOT NULL")
        {
            let stored: String = row["webhook_secret"]
            guard !SealedText.isSealed(stored) else { continue }
            let event = EventID(UInt32(row["event_id"] as Int64))
            try db.execute(
                sql: "UPDATE offline_alert SET webhook_secret = ? WHERE event_id = ?",
                arguments: [
                    try secrets.seal(stored, context: .offlineAlertSecret(event: event)), row["event_id"] as Int64,
                ])
        }
        try db.execute(
            sql: """
                CREATE TRIGGER signing_key_sealed BEFORE INSERT ON signing_key
                    WHEN NEW.private_key_pem NOT LIKE 'sealed1:%'
                    BEGIN SELECT RAISE(ABORT, 'signing_key.private_key_pem must be sealed'); END;
                CREATE TRIGGER signing_key_stays_sealed BEFORE UPDATE OF private_key_pem ON signing_key
                    WHEN NEW.private_key_pem NOT LIKE 'sealed1:%'
                    BEGIN SELECT RAISE(ABORT, 'signing_key.private_key_pem must be sealed'); END;
                CREATE TRIGGER webhook_secret_sealed BEFORE INSERT ON webhook_secret
                    WHEN NEW.secret NOT LIKE 'sealed1:%'
                    BEGIN SELECT RAISE(ABORT, 'webhook_secret.secret must be sealed'); END;
                CREATE TRIGGER webhook_secret_stays_sealed BEFORE UPDATE OF secret ON webhook_secret
                    WHEN NEW.secret NOT LIKE 'sealed1:%'
                    BEGIN SELECT RAISE(ABORT, 'webhook_secret.secret must be sealed'); END;
                CREATE TRIGGER offline_alert_secret_sealed BEFORE INSERT ON offline_alert
                    WHEN NEW.webhook_secret NOT LIKE 'sealed1:%'
                    BEGIN SELECT RAISE(ABORT, 'offline_alert.webhook_secret must be sealed'); END;
                CREATE TRIGGER offline_alert_secret_stays_sealed BEFORE UPDATE OF webhook_secret ON offline_alert
                    WHEN NEW.webhook_secret NOT LIKE 'sealed1:%'
                    BEGIN SELECT RAISE(ABORT, 'offline_alert.webhook_secret must be sealed'); END;
                """)
    }

    static let sealingMigration = "0007 secrets sealed at rest"

    /// After 0007 sealed the secrets in place, their plain text still lies in freed pages of the file and in the
    /// WAL: VACUUM rewrites every page, and a truncating checkpoint empties the WAL, so a copy of the files made
    /// afterwards holds none of it. (Copies made before, and backups, still do.)
    static func forgetPlainSecrets(_ writer: any DatabaseWriter) throws {
        try writer.vacuum()
        if writer is DatabasePool {
            try writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
    }

    /// Keeps the id of the key the secrets are sealed with (on the first start), and refuses another key: a
    /// server started with the wrong key file stops at once, saying so, instead of failing at its first pass.
    static func bindSecretsKey(_ db: Database, _ secrets: any SecretSealing) throws {
        if let bound = try String.fetchOne(db, sql: "SELECT value FROM setting WHERE name = 'secrets_key_id'") {
            guard bound == secrets.keyID else {
                throw SecretSealingError.wrongKey(sealedWith: bound, held: secrets.keyID)
            }
            return
        }
        try db.execute(
            sql: "INSERT INTO setting (name, value, updated_at) VALUES ('secrets_key_id', ?, ?)",
            arguments: [secrets.keyID, Date()])
    }

    func sealSecret(_ secret: String, _ context: SecretContext) throws -> String {
        try secrets.seal(secret, context: context)
    }

    func openSecret(_ stored: String, _ context: SecretContext) throws -> String {
        try secrets.open(stored, context: context)
    }
}
