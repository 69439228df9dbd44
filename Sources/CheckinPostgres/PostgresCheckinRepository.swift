import CheckinCore
import Foundation
import Logging
import PassFormat
import PostgresNIO

/// The check-in server's storage on PostgreSQL, through postgres-nio's `PostgresClient`, for venues where
/// several server processes share one database.
///
/// The client must be running (`client.run()` in the service group, or in a task) before any call; call
/// `migrate()` once at start (several processes may: the migrations run under an advisory lock).
public final class PostgresCheckinRepository: CheckinRepository {
    let client: PostgresClient
    let logger: Logger
    /// Seals the signing keys and webhook secrets before they are stored, opens them when read.
    let secrets: any SecretSealing

    /// `migrate()` checks that `secrets` is the key the database's secrets are sealed with.
    public init(client: PostgresClient, secrets: any SecretSealing, logger: Logger = Logger(label: "checkin-postgres"))
    {
        self.client = client
        self.secrets = secrets
        self.logger = logger
    }

    /// Runs `body` in one transaction, again (up to 8 times) when PostgreSQL answers a serialization failure,
    /// a deadlock or a unique violation (two processes inserting the same key: the retry reads the winner's row).
    /// The body's own errors (`RepositoryError`) come out as they are.
    func transaction<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await client.withConnection { connection in
                    try await connection.withTransaction(logger: logger) { try await body($0) }
                }
            } catch let failure as PostgresTransactionError {
                let cause = failure.closureError ?? failure.commitError ?? failure.beginError ?? failure
                if attempt < 8, Self.isRetryable(cause) {
                    try await Task.sleep(for: .milliseconds(Int.random(in: 1...(5 * attempt))))
                    continue
                }
                throw cause
            }
        }
    }

    static func isRetryable(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] else { return false }
        // serialization_failure, deadlock_detected, unique_violation
        return state == "40001" || state == "40P01" || state == "23505"
    }

    /// One query outside a transaction block, its rows collected.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRandomAccessRow] {
        try await client.query(query, logger: logger).collect().map { $0.makeRandomAccess() }
    }

    // MARK: Tenants and events

    public func createTenant(name: String, at time: Date) async throws -> Tenant {
        let row = try await rows(
            "INSERT INTO tenant (name, created_at) VALUES (\(name), \(time)) RETURNING id, name")[0]
        return try Self.tenant(row)
    }

    public func tenant(_ id: TenantID) async throws -> Tenant? {
        try await rows("SELECT id, name FROM tenant WHERE id = \(Int64(id.rawValue))").first.map(Self.tenant)
    }

    static func tenant(_ row: PostgresRandomAccessRow) throws -> Tenant {
        Tenant(id: TenantID(UInt32(try row["id"].decode(Int64.self))), name: try row["name"].decode(String.self))
    }

    public func createEvent(_ event: NewEvent, tenant: TenantID) async throws -> Event {
        try await transaction { connection in
            let exists = try await connection.query(
                "SELECT 1 AS one FROM tenant WHERE id = \(Int64(tenant.rawValue))", logger: logger
            ).collect()
            guard !exists.isEmpty else { throw RepositoryError.notFound("tenant \(tenant)") }
            let inserted = try await connection.query(
                """
                INSERT INTO event (tenant_id, name, venue, ops_contact, starts_at, ends_at, grace_minutes,
                    minimum_kiosk_version, time_zone)
                VALUES (\(Int64(tenant.rawValue)), \(event.name), \(event.venue), \(event.opsContact),
                    \(event.startsAt), \(event.endsAt), \(Int64(event.graceMinutes)),
                    \(event.minimumKioskVersion?.description), \(event.timeZone))
                RETURNING \(unescaped: Self.eventColumns)
                """, logger: logger
            ).collect()
            let made = try Self.event(inserted[0].makeRandomAccess())
            try await Self.insertFirstList(connection, event: Int64(made.id.rawValue), at: Date(), logger: logger)
            return made
        }
    }

    static let eventColumns =
        "id, tenant_id, name, venue, ops_contact, starts_at, ends_at, grace_minutes, minimum_kiosk_version, time_zone"

    static func event(_ row: PostgresRandomAccessRow) throws -> Event {
        Event(
            id: EventID(UInt32(try row["id"].decode(Int64.self))),
            tenant: TenantID(UInt32(try row["tenant_id"].decode(Int64.self))),
            name: try row["name"].decode(String.self), venue: try row["venue"].decode(String?.self),
            opsContact: try row["ops_contact"].decode(String?.self),
            startsAt: try row["starts_at"].decode(Date.self), endsAt: try row["ends_at"].decode(Date.self),
            graceMinutes: Int(try row["grace_minutes"].decode(Int64.self)),
            minimumKioskVersion: try row["minimum_kiosk_version"].decode(String?.self).flatMap(KioskVersion.init),
            timeZone: try row["time_zone"].decode(String?.self))
    }

    public func event(_ id: EventID) async throws -> Event? {
        try await rows("SELECT \(unescaped: Self.eventColumns) FROM event WHERE id = \(Int64(id.rawValue))")
            .first.map(Self.event)
    }

    public func events(tenant: TenantID) async throws -> [Event] {
        try await rows(
            "SELECT \(unescaped: Self.eventColumns) FROM event WHERE tenant_id = \(Int64(tenant.rawValue)) ORDER BY id"
        ).map(Self.event)
    }

    // MARK: Audit and admin

    public func appendAudit(_ entry: AuditEntry) async throws {
        try await client.query(
            """
            INSERT INTO audit (at, tenant_id, device_id, action, detail)
            VALUES (\(entry.at), \(entry.tenant.map { Int64($0.rawValue) }), \(entry.device), \(entry.action),
                \(entry.detail))
            """, logger: logger)
    }

    public func auditEntries(tenant: TenantID?, limit: Int) async throws -> [AuditEntry] {
        let found: [PostgresRandomAccessRow]
        if let tenant {
            found = try await rows(
                """
                SELECT at, tenant_id, device_id, action, detail FROM audit WHERE tenant_id = \(Int64(tenant.rawValue))
                ORDER BY id DESC LIMIT \(Int64(limit))
                """)
        } else {
            found = try await rows(
                "SELECT at, tenant_id, device_id, action, detail FROM audit ORDER BY id DESC LIMIT \(Int64(limit))")
        }
        return try found.map { row in
            AuditEntry(
                at: try row["at"].decode(Date.self),
                tenant: try row["tenant_id"].decode(Int64?.self).map { TenantID(UInt32($0)) },
                device: try row["device_id"].decode(String?.self), action: try row["action"].decode(String.self),
                detail: try row["detail"].decode(String.self))
        }
    }

    public func setAdminTokenHash(_ hash: String, at time: Date) async throws {
        try await client.query(
            """
            INSERT INTO setting (name, value, updated_at) VALUES ('admin_token_sha256', \(hash), \(time))
            ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
            """, logger: logger)
    }

    public func adminTokenHash() async throws -> String? {
        try await rows("SELECT value FROM setting WHERE name = 'admin_token_sha256'").first?["value"]
            .decode(String.self)
    }
}
