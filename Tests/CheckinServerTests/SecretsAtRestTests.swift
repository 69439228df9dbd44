import CheckinCore
import CheckinServer
import Cryptography
import Foundation
import GRDB
import KioskCore
import PassFormat
import PostgresNIO
import PostgresTestSupport
import Testing

@testable import CheckinAdmin
@testable import CheckinPostgres
@testable import CheckinSQLite

/// Tenants' signing keys and webhook secrets are sealed under a key that is not in the database: a copy of the
/// database alone cannot sign a pass. The same bodies on a SQLite file and on PostgreSQL.
@Suite("Secrets sealed at rest", .dropsTestDatabases)
struct SecretsAtRestTests {
    /// What a copy of the database holds, as bytes an attacker would grep: the SQLite file and its WAL copied
    /// aside, or each secret column of PostgreSQL as the database returns it (a dump holds the same text).
    static func copiedBytes(_ repository: any CheckinRepository) async throws -> String {
        if let sqlite = repository as? SQLiteCheckinRepository, let pool = sqlite.writer as? DatabasePool {
            let copy = RepositoryFactory.temporaryFolder() + "/copy.db"
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: pool.path + suffix) {
                try FileManager.default.copyItem(atPath: pool.path + suffix, toPath: copy + suffix)
            }
            var bytes = Data()
            for suffix in ["", "-wal"] {
                bytes += (try? Data(contentsOf: URL(fileURLWithPath: copy + suffix))) ?? Data()
            }
            // Opened without any key: the columns hold sealed text only.
            let stored = try await DatabaseQueue(path: copy).read { db in
                try String.fetchAll(db, sql: "SELECT private_key_pem FROM signing_key")
                    + String.fetchAll(db, sql: "SELECT secret FROM webhook_secret")
                    + String.fetchAll(db, sql: "SELECT webhook_secret FROM offline_alert")
            }
            #expect(!stored.isEmpty && stored.allSatisfy { $0.hasPrefix("sealed1:") }, "\(stored)")
            return String(decoding: bytes, as: UTF8.self) + stored.joined(separator: "\n")
        }
        let postgres = try #require(repository as? PostgresCheckinRepository)
        var stored: [String] = []
        for query: PostgresQuery in [
            "SELECT private_key_pem AS v FROM signing_key", "SELECT secret AS v FROM webhook_secret",
            "SELECT webhook_secret AS v FROM offline_alert",
        ] {
            stored += try await postgres.rows(query).map { try $0["v"].decode(String.self) }
        }
        #expect(!stored.isEmpty && stored.allSatisfy { $0.hasPrefix("sealed1:") }, "\(stored)")
        return stored.joined(separator: "\n")
    }

    static let stores = [RepositoryFactory.sqliteFile, RepositoryFactory.postgres]

    @Test(arguments: stores)
    func aCopyOfTheDatabaseHoldsNoPrivateKeyOrWebhookSecret(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event()
        let fresh = try Ed25519PrivateKey.generate()
        let key = try await h.repository.signingKey(
            tenant: tenant.id, orAdd: NewSigningKey(privateKeyPEM: try fresh.pem(), publicKey: try fresh.publicKey.raw),
            at: h.clock.now())
        let webhookSecret = try await h.admin.newWebhookSecret(tenant: tenant.id)
        let alerts = try await h.admin.setOfflineAlerts(
            event: event, email: "", webhookURL: "https://ops.example.org/hook", allowPlainHTTP: false)
        let alertSecret = try #require(alerts.webhookSecret)

        // The server reads them back whole.
        #expect(try await h.repository.signingKeys(tenant: tenant.id).first?.privateKeyPEM == key.privateKeyPEM)
        #expect(try await h.repository.webhookSecrets(tenant: tenant.id).map(\.secret) == [webhookSecret])
        #expect(try await h.repository.offlineAlerts(event: event.id).webhookSecret == alertSecret)

        let copy = try await Self.copiedBytes(h.repository)
        #expect(!copy.contains("PRIVATE KEY"))
        #expect(!copy.contains("whsec_"))
        for secret in [webhookSecret, alertSecret] {
            #expect(!copy.contains(String(secret.dropFirst("whsec_".count))))
        }
        let pemBody = key.privateKeyPEM.split(separator: "\n").dropFirst().first.map(String.init) ?? "?"
        #expect(!copy.contains(pemBody))
    }

    @Test(arguments: stores)
    func anotherKeyCannotOpenTheSecrets(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, _, _) = try await h.event()
        _ = try await h.admin.newWebhookSecret(tenant: tenant.id)
        let other = try SecretsKey.random()
        await #expect(throws: SecretSealingError.self) {
            if let sqlite = h.repository as? SQLiteCheckinRepository, let pool = sqlite.writer as? DatabasePool {
                _ = try SQLiteCheckinRepository(path: pool.path, secrets: other)
            } else {
                let postgres = try #require(h.repository as? PostgresCheckinRepository)
                try await PostgresCheckinRepository(client: postgres.client, secrets: other).migrate()
            }
        }
    }

    /// A sealed secret moved to another tenant's row does not open there.
    @Test func aSecretMovedToAnotherRowDoesNotOpen() throws {
        let key = try SecretsKey.random()
        let sealed = try key.seal("whsec_abc", context: .webhookSecret(tenant: TenantID(1)))
        #expect(try key.open(sealed, context: .webhookSecret(tenant: TenantID(1))) == "whsec_abc")
        #expect(throws: SecretSealingError.doesNotOpen(.webhookSecret(tenant: TenantID(2)))) {
            try key.open(sealed, context: .webhookSecret(tenant: TenantID(2)))
        }
        // A byte of the box changed (inside the base64: the last character may carry unused bits).
        var tampered = Array(sealed)
        let at = tampered.count - 12
        tampered[at] = tampered[at] == "A" ? "B" : "A"
        #expect(throws: SecretSealingError.self) {
            try key.open(String(tampered), context: .webhookSecret(tenant: TenantID(1)))
        }
    }

    /// Secrets stored in plain text by an older version are sealed in place at the next start, and read back
    /// the same (SQLite migration 0007).
    @Test func plainSecretsOfAnOlderSQLiteDatabaseAreSealedInPlace() async throws {
        let path = RepositoryFactory.temporaryFolder() + "/checkin.db"
        let secrets = try SecretsKey.random()
        let pem = try Ed25519PrivateKey.generate().pem()
        let older = try DatabasePool(path: path)
        try SQLiteCheckinRepository.migrator(secrets: secrets)
            .migrate(older, upTo: "0006 enrolment nonces, check-in events by guest")
        try await older.write { db in
            try db.execute(
                sql: """
                    INSERT INTO tenant (id, name, created_at) VALUES (1, 'Acme', '2026-01-01 00:00:00');
                    INSERT INTO event (id, tenant_id, name, starts_at, ends_at, grace_minutes)
                        VALUES (1, 1, 'Gala', '2026-12-01 18:00:00', '2026-12-01 23:00:00', 30);
                    INSERT INTO webhook_secret (tenant_id, secret, created_at) VALUES (1, 'whsec_b2xkc2VjcmV0', '2026-01-01 00:00:00');
                    INSERT INTO offline_alert (event_id, webhook_url, webhook_secret, updated_at)
                        VALUES (1, 'https://ops.example.org/h', 'whsec_YWxlcnRzZWNyZXQ=', '2026-01-01 00:00:00');
                    """)
            try db.execute(
                sql: """
                    INSERT INTO signing_key (key_id, tenant_id, private_key_pem, public_key, created_at)
                    VALUES (1000, 1, ?, x'00', '2026-01-01 00:00:00')
                    """, arguments: [pem])
        }
        try older.close()
        let repository = try SQLiteCheckinRepository(path: path, secrets: secrets)
        #expect(try await repository.signingKeys(tenant: TenantID(1)).map(\.privateKeyPEM) == [pem])
        #expect(try await repository.webhookSecrets(tenant: TenantID(1)).map(\.secret) == ["whsec_b2xkc2VjcmV0"])
        #expect(try await repository.offlineAlerts(event: EventID(1)).webhookSecret == "whsec_YWxlcnRzZWNyZXQ=")
        let copy = try await Self.copiedBytes(repository)
        #expect(!copy.contains("PRIVATE KEY") && !copy.contains("whsec_"))
        // And no code path can store a plain one any more.
        await #expect(throws: DatabaseError.self) {
            try await repository.writer.write { db in
                try db.execute(sql: "UPDATE webhook_secret SET secret = 'whsec_plain'")
            }
        }
    }

    /// The same on PostgreSQL (migration 7).
    @Test func plainSecretsOfAnOlderPostgresDatabaseAreSealedInPlace() async throws {
        let database = try await PostgresTestDatabase.make()
        let repository = PostgresCheckinRepository(client: database.client(), secrets: database.secrets)
        try await repository.migrate(through: 6)
        let pem = try Ed25519PrivateKey.generate().pem()
        for query: PostgresQuery in [
            "INSERT INTO tenant (id, name, created_at) VALUES (1, 'Acme', now())",
            """
            INSERT INTO event (id, tenant_id, name, starts_at, ends_at, grace_minutes)
            VALUES (1, 1, 'Gala', now(), now() + interval '5 hours', 30)
            """,
            "INSERT INTO webhook_secret (tenant_id, secret, created_at) VALUES (1, 'whsec_b2xkc2VjcmV0', now())",
            """
            INSERT INTO offline_alert (event_id, webhook_url, webhook_secret, updated_at)
            VALUES (1, 'https://ops.example.org/h', 'whsec_YWxlcnRzZWNyZXQ=', now())
            """,
            """
            INSERT INTO signing_key (key_id, tenant_id, private_key_pem, public_key, created_at)
            VALUES (1000, 1, \(pem), '\\x00', now())
            """,
        ] {
            _ = try await repository.rows(query)
        }
        try await repository.migrate()
        #expect(try await repository.signingKeys(tenant: TenantID(1)).map(\.privateKeyPEM) == [pem])
        #expect(try await repository.webhookSecrets(tenant: TenantID(1)).map(\.secret) == ["whsec_b2xkc2VjcmV0"])
        #expect(try await repository.offlineAlerts(event: EventID(1)).webhookSecret == "whsec_YWxlcnRzZWNyZXQ=")
        let copy = try await Self.copiedBytes(repository)
        #expect(!copy.contains("PRIVATE KEY") && !copy.contains("whsec_"))
        await #expect(throws: (any Error).self) {
            _ = try await repository.rows("UPDATE webhook_secret SET secret = 'whsec_plain'")
        }
    }
}
