import KioskCore
import Testing
@testable import KioskStore

@Suite("Schema migrations")
struct MigrationTests {
    /// The store after upgrading `old` to every migration: a reopened file, or the same in-memory database.
    private func upgrade(_ old: SQLiteDoorStore, _ db: TestDatabase) throws -> SQLiteDoorStore {
        switch db.kind {
        case .file: return try db.open()
        case .memory:
            try old.connection.migrate(Migrations.all)
            return old
        }
    }

    private func migrationNumbers(_ store: SQLiteDoorStore) throws -> [Int] {
        try store.connection.rows("SELECT number FROM kiosk_migrations ORDER BY number", name: "test migrations") {
            $0.int(0)
        }
    }

    @Test("a database made with migration 1 only is upgraded and keeps its queue", arguments: StoreKind.allCases)
    func upgradeKeepsQueue(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let old = try db.openOld(migrations: [Migrations.createTables])
        #expect(try migrationNumbers(old) == [1])
        // What an older kiosk wrote: roster rows (without name words) and pending check-ins.
        for guest in Fixture.roster {
            try old.connection.run("""
                INSERT INTO roster (event, guest_id, tenant, name, name_key, email, email_key, party_size, notes,
                                    updated_at)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 0)
                """, name: "test old roster",
                [.int(guest.event.rawValue), .text(guest.guest.text), .int(guest.tenant.rawValue), .text(guest.name),
                 .text(SearchKey.fold(guest.name)), .text(guest.email), .text(SearchKey.fold(guest.email)),
                 .int(guest.partySize), .text(guest.notes)])
        }
        let scans = [Fixture.checkIn(Fixture.bob, at: 2), Fixture.checkIn(Fixture.anna, at: 1)]
        for scan in scans { _ = try old.record(checkIn: scan, attempt: Fixture.attempt(for: scan)) }
        let queued = try old.pendingCheckIns(limit: 10)
        #expect(queued.count == 2)

        let store = try upgrade(old, db)
        #expect(try migrationNumbers(store) == [1, 2])
        #expect(try store.pendingCheckIns(limit: 10) == queued)
        #expect(try store.lookUp(guest: Fixture.anna.guest, event: Fixture.event) == .checkedIn(Fixture.anna, scans[1]))
        // Migration 2 filled the name words from the old rows.
        #expect(try store.searchGuests(prefix: "smi", event: Fixture.event, limit: 10).map(\.name)
                == ["Anna Smith", "carla smithers", "Dan Brown"])
        #expect(try store.searchGuests(prefix: "martin", event: Fixture.event, limit: 10).map(\.name)
                == ["Émile Zola-Martin"])
        // The queue goes on in order after the upgrade.
        let next = Fixture.checkIn(Fixture.carla, at: 3)
        _ = try store.record(checkIn: next, attempt: Fixture.attempt(for: next))
        #expect(try store.pendingCheckIns(limit: 10).map(\.checkIn) == scans + [next])
    }

    @Test("migrations are applied once", arguments: StoreKind.allCases)
    func appliedOnce(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.connection.migrate(Migrations.all)
        try store.connection.migrate(Migrations.all)
        #expect(try migrationNumbers(store) == Migrations.all.map(\.number))
        if kind == .file {
            #expect(try migrationNumbers(try db.open()) == Migrations.all.map(\.number))
        }
    }

    @Test("a database from a newer kiosk is refused, not written", arguments: StoreKind.allCases)
    func newerDatabase(_ kind: StoreKind) throws {
        let db = try TestDatabase(kind)
        let store = try db.open()
        try store.connection.run("INSERT INTO kiosk_migrations (number, name, applied_at) VALUES (99, 'future', 0)",
                                 name: "test future migration")
        let error = storeError { try store.connection.migrate(Migrations.all) }
        #expect(error?.kind == .unknownSchema)
        #expect(error?.description.contains("migration 99 'future' is newer than this kiosk") == true)
        #expect(error?.description.contains("upgrade the kiosk software") == true)
    }

    @Test("the shipped migrations are numbered 1, 2, ... with distinct names")
    func numbering() {
        #expect(Migrations.all.map(\.number) == Array(1...Migrations.all.count))
        #expect(Set(Migrations.all.map(\.name)).count == Migrations.all.count)
    }
}
