import CheckinCore
import Foundation
import GRDB
import PassFormat
import Synchronization
import SystemCalls

/// The check-in server's storage on SQLite, through GRDB: a `DatabasePool` (WAL: readers beside one writer)
/// on a file, or a `DatabaseQueue` in memory for tests.
public final class SQLiteCheckinRepository: CheckinRepository {
    let writer: any DatabaseWriter
    /// The issuances a worker of this process is running: SQLite serves one server process, so this set is
    /// what keeps two workers off the same issuance (PostgreSQL uses row locks).
    let runningIssuances = Mutex<Set<String>>([])
    /// Seals the signing keys and webhook secrets before they are stored, opens them when read.
    let secrets: any SecretSealing

    /// Opens (or creates) the database file and brings its schema up to date. The file, its WAL and shared
    /// memory are readable by this user only (0600), whatever the umask; an older, wider file is tightened.
    public convenience init(path: String, secrets: any SecretSealing) throws {
        try Self.makePrivate(path)
        var configuration = Self.configuration()
        configuration.busyMode = .timeout(10)
        try self.init(writer: DatabasePool(path: path, configuration: configuration), secrets: secrets)
        try Self.makePrivate(path)
    }

    /// An empty database in memory.
    public static func inMemory(secrets: any SecretSealing) throws -> SQLiteCheckinRepository {
        try SQLiteCheckinRepository(writer: DatabaseQueue(configuration: configuration()), secrets: secrets)
    }

    /// Every connection has `unaccent(text)` (`GuestSearch.unaccented`), which the guest search compares in, and
    /// `secure_delete`: what SQLite frees or overwrites is zeroed, so a purge of personal data
    /// (`purgePersonalData`) leaves no old value in the file's free space.
    static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.add(function: unaccent)
            try db.execute(sql: "PRAGMA secure_delete = ON")
        }
        return configuration
    }

    static let unaccent = DatabaseFunction("unaccent", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(GuestSearch.unaccented)
    }

    /// Migrates (0007 seals the secrets stored before they were sealed) and checks that `secrets` is the key
    /// the database's secrets are sealed with.
    public init(writer: any DatabaseWriter, secrets: any SecretSealing) throws {
        self.writer = writer
        self.secrets = secrets
        let migrator = Self.migrator(secrets: secrets)
        let sealing = try writer.read { db in try !migrator.appliedIdentifiers(db).contains(Self.sealingMigration) }
        try migrator.migrate(writer)
        try writer.write { db in try Self.bindSecretsKey(db, secrets) }
        if sealing { try Self.forgetPlainSecrets(writer) }
    }

    /// A new database file is made 0600 before SQLite opens it (SQLite gives its WAL and shared memory the
    /// database's mode); an existing one and its companions lose any group and other permissions.
    static func makePrivate(_ path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            _ = try PrivateFile.createExclusively([], path: path)
        }
        for suffix in ["", "-wal", "-shm", "-journal"] { try PrivateFile.restrict(path + suffix) }
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
                graceMinutes: event.graceMinutes, minimumKioskVersion: event.minimumKioskVersion?.description,
                timeZone: event.timeZone)
            try row.insert(db)
            row.id = db.lastInsertedRowID
            try Self.insertFirstList(db, event: row.event.id, at: Date())
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
