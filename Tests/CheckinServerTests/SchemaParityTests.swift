import CheckinCore
import CheckinSQLite
import Foundation
import GRDB
import PostgresNIO
import PostgresTestSupport
import TestSupport
import Testing

@testable import CheckinAdmin

/// The server's two hand-written schemas, read back from the databases their migrations made: SQLite's
/// (`PRAGMA table_info`, `foreign_key_list`, `index_list`) and PostgreSQL's (`information_schema`, `pg_constraint`,
/// `pg_index`) hold the same tables, the same columns of the same kind and nullability, the same primary keys,
/// foreign keys and unique keys. A migration added to one store and not the other fails here by name.
@Suite("The SQLite and PostgreSQL schemas hold the same tables, columns and constraints", .dropsTestDatabases)
struct SchemaParityTests {
    /// Differences that exist today, each with why it stays: the test fails when one disappears too, so that the
    /// list is kept exact (remove the line with the migration that ends it).
    static let knownDifferences: Set<String> = [
        // SQLite's TEXT primary keys accept NULL (a quirk SQLite keeps for old files, sqlite.org/lang_createtable.html,
        // "PRIMARY KEY"); PostgreSQL's are NOT NULL. The repositories never write NULL there; making the columns
        // NOT NULL on SQLite means rebuilding the seven tables in a migration.
        "alert_delivery.id: nullable on SQLite, not on PostgreSQL",
        "device.id: nullable on SQLite, not on PostgreSQL",
        "enrolment_code.code_hash: nullable on SQLite, not on PostgreSQL",
        "pass_issuance.id: nullable on SQLite, not on PostgreSQL",
        "password_reset.token_hash: nullable on SQLite, not on PostgreSQL",
        "setting.name: nullable on SQLite, not on PostgreSQL",
        "web_session.token_hash: nullable on SQLite, not on PostgreSQL",
        // The guests' change numbers: SQLite counts them in a table of its own (one writer at a time), PostgreSQL
        // takes them from a sequence and keeps the writing transaction's id beside each, so that a delta never
        // skips a change committed out of order by another server process (docs/SYNC.md, "Roster deltas").
        "change_sequence: only on SQLite",
        "guest.change_xid: only on PostgreSQL",
        // The door's last reported LAN links: a JSON array in a TEXT column on SQLite, a text[] on PostgreSQL; both
        // repositories read them back as [String].
        "device.report_lan_peers: text on SQLite, ARRAY on PostgreSQL",
        // An enrolment code names the device it enrolled; PostgreSQL's schema lacks that foreign key. Adding it
        // is a migration that must first deal with codes of devices deleted since (none are deleted today).
        "enrolment_code: foreign key (device_id) -> device only on SQLite",
    ]

    @Test func bothStoresDescribeTheSameSchema() async throws {
        let sqlite = try Self.sqliteSchema()
        let postgres = try await Self.postgresSchema()
        #expect(sqlite.count > 10, "SQLite: \(sqlite.keys.sorted())")
        let found = SchemaTable.differences(sqlite, postgres)
        let unknown = found.subtracting(Self.knownDifferences).sorted()
        let gone = Self.knownDifferences.subtracting(found).sorted()
        #expect(unknown.isEmpty, "new differences:\n\(unknown.joined(separator: "\n"))")
        #expect(gone.isEmpty, "known differences that no longer hold (remove them):\n\(gone.joined(separator: "\n"))")
    }

    /// The schema `SQLiteCheckinRepository` makes, read back through GRDB.
    static func sqliteSchema() throws -> [String: SchemaTable] {
        let path = RepositoryFactory.temporaryFolder() + "/checkin.db"
        _ = try RepositoryFactory.sqlite(path: path)
        let queue = try DatabaseQueue(path: path)
        return try queue.read { db in
            var tables: [String: SchemaTable] = [:]
            let names = try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
                    AND name <> 'grdb_migrations'
                    """)
            for name in names {
                var table = SchemaTable()
                var primaryKey: [(Int, String)] = []
                for row in try Row.fetchAll(db, sql: "PRAGMA table_info(\(name.quotedDatabaseIdentifier))") {
                    let column: String = row["name"]
                    let declared: String = row["type"]
                    let notNull: Bool = row["notnull"]
                    let pk: Int = row["pk"]
                    table.columns[column] = SchemaColumn(kind: SchemaColumn.kind(sqlite: declared), nullable: !notNull)
                    if pk > 0 { primaryKey.append((pk, column)) }
                }
                table.primaryKey = primaryKey.sorted { $0.0 < $1.0 }.map(\.1)
                // A lone INTEGER PRIMARY KEY is the rowid: NULL there is given the next number, never stored.
                if table.primaryKey.count == 1, let only = table.primaryKey.first,
                    table.columns[only]?.kind == "integer"
                {
                    table.columns[only]?.nullable = false
                }
                var foreign: [Int: (table: String, from: [String], to: [String])] = [:]
                for row in try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(\(name.quotedDatabaseIdentifier))") {
                    let id: Int = row["id"]
                    var key = foreign[id] ?? (row["table"], [], [])
                    key.from.append(row["from"])
                    key.to.append(row["to"] ?? "")
                    foreign[id] = key
                }
                table.foreignKeys = Set(foreign.values.map { "(\($0.from.joined(separator: ", "))) -> \($0.table)" })
                for row in try Row.fetchAll(db, sql: "PRAGMA index_list(\(name.quotedDatabaseIdentifier))") {
                    let unique: Bool = row["unique"]
                    let origin: String = row["origin"]
                    guard unique, origin != "pk" else { continue }
                    let index: String = row["name"]
                    let partial: Bool = row["partial"]
                    let columns = try String.fetchAll(
                        db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [index])
                    table.uniqueKeys.insert("(\(columns.joined(separator: ", ")))" + (partial ? " partial" : ""))
                }
                tables[name] = table
            }
            return tables
        }
    }

    /// The schema `PostgresCheckinRepository` makes, read back from the catalogue.
    static func postgresSchema() async throws -> [String: SchemaTable] {
        let database = try await PostgresTestDatabase.migrated()
        _ = try await database.repository()
        let client = database.client()
        var tables: [String: SchemaTable] = [:]
        let columns = try await client.query(
            """
            SELECT c.table_name::text, c.column_name::text, c.data_type::text, c.is_nullable::text
            FROM information_schema.columns c JOIN information_schema.tables t
              ON t.table_schema = c.table_schema AND t.table_name = c.table_name
            WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.table_name <> 'schema_migrations'
            """)
        for try await (table, column, type, nullable) in columns.decode((String, String, String, String).self) {
            tables[table, default: SchemaTable()].columns[column] = SchemaColumn(
                kind: SchemaColumn.kind(postgres: type), nullable: nullable == "YES")
        }
        let constraints = try await client.query(
            """
            SELECT t.relname::text, c.contype::text,
              array_to_string(ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(n, o)
                JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o), ', '),
              COALESCE((SELECT r.relname::text FROM pg_class r WHERE r.oid = c.confrelid), '')
            FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace ns ON ns.oid = t.relnamespace
            WHERE ns.nspname = 'public' AND c.contype IN ('p', 'f') AND t.relname <> 'schema_migrations'
            """)
        for try await (table, type, columns, referenced) in constraints.decode((String, String, String, String).self) {
            if type == "p" {
                tables[table, default: SchemaTable()].primaryKey = columns.components(separatedBy: ", ")
            } else {
                tables[table, default: SchemaTable()].foreignKeys.insert("(\(columns)) -> \(referenced)")
            }
        }
        let uniques = try await client.query(
            """
            SELECT t.relname::text,
              array_to_string(ARRAY(SELECT a.attname FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(n, o)
                JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n ORDER BY k.o), ', '),
              i.indpred IS NOT NULL
            FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace ns ON ns.oid = t.relnamespace
            WHERE ns.nspname = 'public' AND i.indisunique AND NOT i.indisprimary AND t.relname <> 'schema_migrations'
            """)
        for try await (table, columns, partial) in uniques.decode((String, String, Bool).self) {
            tables[table, default: SchemaTable()].uniqueKeys.insert("(\(columns))" + (partial ? " partial" : ""))
        }
        return tables
    }
}

/// A column as both stores can say it: a kind of value, and whether it may be NULL.
struct SchemaColumn: Equatable {
    var kind: String
    var nullable: Bool

    /// SQLite's type affinity of a declared type (sqlite.org/datatype3.html, 3.1), with BOOLEAN apart.
    static func kind(sqlite declared: String) -> String {
        let type = declared.uppercased()
        if type.contains("BOOL") { return "boolean" }
        if type.contains("DATE") || type.contains("TIME") { return "timestamp" }
        if type.contains("INT") { return "integer" }
        if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { return "text" }
        if type.contains("BLOB") || type.isEmpty { return "blob" }
        if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") { return "real" }
        return "numeric"
    }

    static func kind(postgres type: String) -> String {
        switch type {
        case "bigint", "integer", "smallint": "integer"
        case "text", "character varying", "character": "text"
        case "bytea": "blob"
        case "double precision", "real": "real"
        case "boolean": "boolean"
        case "timestamp with time zone", "timestamp without time zone", "date": "timestamp"
        default: type
        }
    }
}

/// A table as both stores can say it.
struct SchemaTable: Equatable {
    var columns: [String: SchemaColumn] = [:]
    var primaryKey: [String] = []
    /// "(columns) -> table".
    var foreignKeys: Set<String> = []
    /// "(columns)", with " partial" for a unique index with a WHERE clause.
    var uniqueKeys: Set<String> = []

    /// Every difference between the two stores' tables, one line each, named by table and column.
    static func differences(_ sqlite: [String: SchemaTable], _ postgres: [String: SchemaTable]) -> Set<String> {
        var found: Set<String> = []
        for name in Set(sqlite.keys).union(postgres.keys) {
            guard let s = sqlite[name] else {
                found.insert("\(name): only on PostgreSQL")
                continue
            }
            guard let p = postgres[name] else {
                found.insert("\(name): only on SQLite")
                continue
            }
            for column in Set(s.columns.keys).union(p.columns.keys) {
                switch (s.columns[column], p.columns[column]) {
                case (nil, _): found.insert("\(name).\(column): only on PostgreSQL")
                case (_, nil): found.insert("\(name).\(column): only on SQLite")
                case (let a?, let b?):
                    if a.kind != b.kind {
                        found.insert("\(name).\(column): \(a.kind) on SQLite, \(b.kind) on PostgreSQL")
                    }
                    if a.nullable != b.nullable {
                        found.insert(
                            "\(name).\(column): "
                                + (a.nullable
                                    ? "nullable on SQLite, not on PostgreSQL" : "nullable on PostgreSQL, not on SQLite")
                        )
                    }
                }
            }
            if s.primaryKey != p.primaryKey {
                found.insert("\(name): primary key \(s.primaryKey) on SQLite, \(p.primaryKey) on PostgreSQL")
            }
            for key in s.foreignKeys.subtracting(p.foreignKeys) {
                found.insert("\(name): foreign key \(key) only on SQLite")
            }
            for key in p.foreignKeys.subtracting(s.foreignKeys) {
                found.insert("\(name): foreign key \(key) only on PostgreSQL")
            }
            for key in s.uniqueKeys.subtracting(p.uniqueKeys) { found.insert("\(name): unique \(key) only on SQLite") }
            for key in p.uniqueKeys.subtracting(s.uniqueKeys) {
                found.insert("\(name): unique \(key) only on PostgreSQL")
            }
        }
        return found
    }
}
