import CheckinCore
import Foundation
import GRDB
import KioskCore
import Synchronization

/// The check-in server's storage on SQLite, through GRDB: a `DatabasePool` (WAL: readers beside one writer)
/// on a file, or a `DatabaseQueue` in memory for tests.
public final class SQLiteCheckinRepository: CheckinRepository {
    let writer: any DatabaseWriter
    /// The issuances a worker of this process is running: SQLite serves one server process, so this set is
    /// what keeps two workers off the same issuance (PostgreSQL uses row locks).
    let runningIssuances = Mutex<Set<String>>([])

    /// Opens (or creates) the database file and brings its schema up to date.
    public convenience init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        try self.init(writer: DatabasePool(path: path, configuration: configuration))
    }

    /// An empty database in memory.
    public static func inMemory() throws -> SQLiteCheckinRepository {
        try SQLiteCheckinRepository(writer: DatabaseQueue())
    }

    public init(writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }

    /// The next value of the change sequence; one writer at a time, so its order is commit order.
    static func nextChange(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(
            db.cachedStatement(sql: "UPDATE change_sequence SET value = value + 1 WHERE id = 1 RETURNING value")) ?? 0
    }

    static func currentChange(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT value FROM change_sequence WHERE id = 1") ?? 0
    }

    // MARK: Tenants and events

    public func createTenant(name: String, at time: Date) async throws -> Tenant {
        try await writer.write { db in
            var row = TenantRow(id: nil, name: name, createdAt: time)
            try row.insert(db)
            row.id = db.lastInsertedRowID
            return row.tenant
        }
    }

    public func tenant(_ id: TenantID) async throws -> Tenant? {
        try await writer.read { db in try TenantRow.fetchOne(db, key: Int64(id.rawValue))?.tenant }
    }

    public func createEvent(_ event: NewEvent, tenant: TenantID) async throws -> Event {
        try await writer.write { db in
            guard try TenantRow.exists(db, key: Int64(tenant.rawValue)) else {
                throw RepositoryError.notFound("tenant \(tenant)")
            }
            var row = EventRow(
                id: nil, tenantId: Int64(tenant.rawValue), name: event.name, venue: event.venue,
                opsContact: event.opsContact, startsAt: event.startsAt, endsAt: event.endsAt,
                graceMinutes: event.graceMinutes, minimumKioskVersion: event.minimumKioskVersion?.description)
            try row.insert(db)
            row.id = db.lastInsertedRowID
            return row.event
        }
    }

    public func event(_ id: EventID) async throws -> Event? {
        try await writer.read { db in try EventRow.fetchOne(db, key: Int64(id.rawValue))?.event }
    }

    public func events(tenant: TenantID) async throws -> [Event] {
        try await writer.read { db in
            try EventRow.filter(EventRow.Columns.tenantId == Int64(tenant.rawValue)).order(Column("id"))
                .fetchAll(db).map(\.event)
        }
    }

    // MARK: Audit and admin

    public func appendAudit(_ entry: AuditEntry) async throws {
        try await writer.write { db in
            try AuditRow(
                id: nil, at: entry.at, tenantId: entry.tenant.map { Int64($0.rawValue) }, deviceId: entry.device,
                action: entry.action, detail: entry.detail
            ).insert(db)
        }
    }

    public func auditEntries(tenant: TenantID?, limit: Int) async throws -> [AuditEntry] {
        try await writer.read { db in
            var request = AuditRow.order(AuditRow.Columns.id.desc).limit(limit)
            if let tenant { request = request.filter(AuditRow.Columns.tenantId == Int64(tenant.rawValue)) }
            return try request.fetchAll(db).map(\.entry)
        }
    }

    public func setAdminTokenHash(_ hash: String, at time: Date) async throws {
        try await writer.write { db in
            try SettingRow(name: "admin_token_sha256", value: hash, updatedAt: time).save(db)
        }
    }

    public func adminTokenHash() async throws -> String? {
        try await writer.read { db in try SettingRow.fetchOne(db, key: "admin_token_sha256")?.value }
    }
}
