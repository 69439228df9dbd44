import GRDB
import KioskCore
import Testing

@testable import KioskStore

@Suite("Schema migrations")
struct MigrationTests {
    /// The store after upgrading an old database: the file reopened, or the same in-memory database.
    private func upgrade(_ old: DatabaseQueue, _ db: TestDatabase) throws -> SQLiteDoorStore {
        switch db.kind {
        case .file: return try db.open(mode: .openExisting)
        case .memory: return try SQLiteDoorStore(database: old, path: SQLiteDoorStore.inMemory)
        }
    }

    private func identifiers(_ store: SQLiteDoorStore) throws -> [String] {
        try store.database.read { db in
            try Row.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
                .map { row -> String in row["identifier"] }
        }
    }

    private func oldNumbers(_ store: SQLiteDoorStore) throws -> [Int] {
        try store.database.read { db in
            try Row.fetchAll(db, sql: "SELECT number FROM kiosk_migrations ORDER BY number")
                .map { row -> Int in row["number"] }
        }
    }

    @Test(
        "a database of the kiosk before GRDB is upgraded in place and keeps its queue",
        arguments: StoreKind.allCases, [1, 2])
    func upgradeKeepsQueue(_ kind: StoreKind, applied: Int) throws {
        let db = try TestDatabase(kind)
        let scans = [Fixture.checkIn(Fixture.bob, at: 2), Fixture.checkIn(Fixture.anna, at: 1)]
        let old = try OldKioskDatabase.make(db, migrations: Array(Migrations.all.prefix(applied)))
        for guest in Fixture.roster { try OldKioskDatabase.insert(guest, into: old) }
        for scan in scans { try OldKioskDatabase.record(scan, into: old) }

        let store = try upgrade(old, db)
        #expect(try identifiers(store) == Migrations.all.map(\.identifier).sorted())
        #expect(try oldNumbers(store) == Array(1...applied), "the old table stays as history")
        // The queue is kept, with its sequence numbers and keys.
        let queued = try store.pendingCheckIns(limit: 10)
        #expect(queued.map(\.checkIn) == scans)
        #expect(queued.map(\.sequence) == [1, 2])
        #expect(try store.auditLog(limit: 10).count == 2)
        #expect(try store.lookUp(guest: Fixture.anna.guest, event: Fixture.event) == .checkedIn(Fixture.anna, scans[1]))
        // Migration 2 filled (or had filled) the name words from the old rows.
        #expect(
            try store.searchGuests(prefix: "smi", event: Fixture.event, limit: 10).map(\.name)
                == ["Anna Smith", "carla smithers", "Dan Brown"])
        #expect(
            try store.searchGuests(prefix: "martin", event: Fixture.event, limit: 10).map(\.name)
                == ["Émile Zola-Martin"])
        // The queue goes on in order after the upgrade.
        let next = Fixture.checkIn(Fixture.carla, at: 3)
        #expect(try store.record(checkIn: next, attempt: Fixture.attempt(for: next)) == .recorded)
        #expect(try store.pendingCheckIns(limit: 10).map(\.checkIn) == scans + [next])
        #expect(try store.pendingCheckIns(limit: 10).last?.sequence == 3)
    }

    @Test("migrations are applied once", arguments: StoreKind.allCases)
    func appliedOnce(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        let again = try SQLiteDoorStore(database: store.database, path: store.path)
        #expect(try identifiers(again) == Migrations.all.map(\.identifier).sorted())
        if kind == .file {
            #expect(try identifiers(try db.open(mode: .openExisting)) == Migrations.all.map(\.identifier).sorted())
        }
    }

    @Test("a database from a newer kiosk is refused, not written", arguments: StoreKind.allCases)
    func newerDatabase(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.database.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('99 future')")
        }
        let error = storeError { _ = try SQLiteDoorStore(database: store.database, path: store.path) }
        #expect(error?.kind == .unknownSchema)
        #expect(error?.description.contains("migration '99 future' is newer than this kiosk") == true)
        #expect(error?.description.contains("upgrade the kiosk software") == true)
        #expect(error?.description.contains(store.path) == true)
    }

    @Test("an old database that records an unknown migration is refused", arguments: StoreKind.allCases)
    func newerOldDatabase(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let old = try OldKioskDatabase.make(db, migrations: [Migrations.createTables])
        try old.write { try $0.execute(sql: "INSERT INTO kiosk_migrations VALUES (99, 'future', 0)") }
        let error = storeError { _ = try upgrade(old, db) }
        #expect(error?.kind == .unknownSchema)
        #expect(error?.description.contains("migration 99 'future' is newer than this kiosk") == true)
    }

    @Test("the shipped migrations are numbered 1, 2, ... with distinct names")
    func numbering() {
        #expect(Migrations.all.map(\.number) == Array(1...Migrations.all.count))
        #expect(Set(Migrations.all.map(\.name)).count == Migrations.all.count)
    }
}
