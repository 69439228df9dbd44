import CheckinCore
import Foundation
import PassFormat
import PostgresNIO

/// The secrets the database keeps sealed (`SecretSealing`): tenants' private signing keys, their guest-webhook
/// secrets, events' offline-alert webhook secrets.
extension PostgresCheckinRepository {
    /// The Swift part of migration 7: every secret stored in plain text before is sealed in place (nothing is
    /// lost). The step's SQL then adds the constraints that refuse a plain secret from then on.
    func sealStoredSecrets(_ connection: PostgresConnection) async throws {
        let keys = try await connection.query(
            "SELECT key_id, tenant_id, private_key_pem FROM signing_key FOR UPDATE", logger: logger
        ).collect()
        for row in keys.map({ $0.makeRandomAccess() }) {
            let stored = try row["private_key_pem"].decode(String.self)
            guard !SealedText.isSealed(stored) else { continue }
            let tenant = TenantID(UInt32(try row["tenant_id"].decode(Int64.self)))
            let sealed = try secrets.seal(stored, context: .signingKey(tenant: tenant))
            let id = try row["key_id"].decode(Int64.self)
            try await connection.query(
                "UPDATE signing_key SET private_key_pem = \(sealed) WHERE key_id = \(id)", logger: logger)
        }
        let webhookSecrets = try await connection.query(
            "SELECT id, tenant_id, secret FROM webhook_secret FOR UPDATE", logger: logger
        ).collect()
        for row in webhookSecrets.map({ $0.makeRandomAccess() }) {
            let stored = try row["secret"].decode(String.self)
            guard !SealedText.isSealed(stored) else { continue }
            let tenant = TenantID(UInt32(try row["tenant_id"].decode(Int64.self)))
            let sealed = try secrets.seal(stored, context: .webhookSecret(tenant: tenant))
            let id = try row["id"].decode(Int64.self)
            try await connection.query("UPDATE webhook_secret SET secret = \(sealed) WHERE id = \(id)", logger: logger)
        }
        let alerts = try await connection.query(
            "SELECT event_id, webhook_secret FROM offline_alert WHERE webhook_secret IS NOT NULL FOR UPDATE",
            logger: logger
        ).collect()
        for row in alerts.map({ $0.makeRandomAccess() }) {
            let stored = try row["webhook_secret"].decode(String.self)
            guard !SealedText.isSealed(stored) else { continue }
            let id = try row["event_id"].decode(Int64.self)
            let sealed = try secrets.seal(stored, context: .offlineAlertSecret(event: EventID(UInt32(id))))
            try await connection.query(
                "UPDATE offline_alert SET webhook_secret = \(sealed) WHERE event_id = \(id)", logger: logger)
        }
    }

    /// After migration 7 sealed the secrets in place, their plain rows are dead tuples still in the tables'
    /// files: VACUUM FULL rewrites the three small tables without them. (PostgreSQL's WAL, its archives and
    /// backups made before still hold them.)
    func forgetPlainSecrets(_ connection: PostgresConnection) async throws {
        for table in ["signing_key", "webhook_secret", "offline_alert"] {
            try await connection.query(PostgresQuery(unsafeSQL: "VACUUM FULL \(table)"), logger: logger)
        }
    }

    /// Keeps the id of the key the secrets are sealed with (the first process to start sets it), and refuses
    /// another key: a server started with the wrong key file, or a second machine that made a key of its own,
    /// stops at once, saying so.
    func bindSecretsKey(_ connection: PostgresConnection) async throws {
        try await connection.query(
            """
            INSERT INTO setting (name, value, updated_at) VALUES ('secrets_key_id', \(secrets.keyID), now())
            ON CONFLICT (name) DO NOTHING
            """, logger: logger)
        let bound = try await connection.query(
            "SELECT value FROM setting WHERE name = 'secrets_key_id'", logger: logger
        ).collect()
        let value = try bound.first?.makeRandomAccess()["value"].decode(String.self)
        guard value == secrets.keyID else {
            throw SecretSealingError.wrongKey(sealedWith: value ?? "none", held: secrets.keyID)
        }
    }
}
