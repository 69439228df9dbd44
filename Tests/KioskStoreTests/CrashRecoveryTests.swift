import Foundation
import KioskCore
import PassFormat
import Testing

@testable import KioskStore

/// A kiosk killed (SIGKILL, a crash, a power cut) keeps every commit: its database file and WAL, as they are on
/// disk at that moment, open to everything that was committed. SQLite recovers the WAL by its frames' checksums,
/// which it computed over the pages as it wrote them; the encrypting VFS must hand each page back exactly so.
@Suite("Kiosk database after a crash")
struct CrashRecoveryTests {
    /// The files of a database that is still open, copied as a crash would leave them (no close, no checkpoint),
    /// to a new folder; opened with `db`'s key.
    static func crashCopy(of db: TestDatabase) throws -> TestDatabase {
        let copy = try TestDatabase(.file, key: db.key)
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: db.path + suffix, toPath: copy.path + suffix)
        }
        return copy
    }

    @Test("every check-in committed before a crash is there after it")
    func commitsSurviveACrash() throws {
        let db = try TestDatabase(.file)
        let store = try db.open()
        try store.upsertGuests(Fixture.roster)
        // Pages read back and written again (the roster's, the queue's), and new ones.
        for (n, guest) in Fixture.roster.prefix(4).enumerated() {
            let checkIn = Fixture.checkIn(guest, at: 10 + n)
            #expect(try store.record(checkIn: checkIn, attempt: Fixture.attempt(for: checkIn)) == .recorded)
        }
        let copy = try Self.crashCopy(of: db)
        let after = try SQLiteDoorStore(path: copy.path, mode: .openExisting, key: db.key)
        #expect(try after.checkIns(event: Fixture.event).count == 4)
        #expect(try after.pendingCount() == 4)
        #expect(try after.guestCount(event: Fixture.event) == Fixture.roster.count)
        withExtendedLifetime(store) {}

        // The door goes on after the restart and crashes again: the recovered pages, written again, hold too.
        let guest = Fixture.roster[4]
        let checkIn = Fixture.checkIn(guest, at: 30)
        #expect(try after.record(checkIn: checkIn, attempt: Fixture.attempt(for: checkIn)) == .recorded)
        let second = try Self.crashCopy(of: copy)
        let again = try SQLiteDoorStore(path: second.path, mode: .openExisting, key: db.key)
        #expect(try again.checkIns(event: Fixture.event).count == 5)
        #expect(try again.pendingCount() == 5)
        #expect(try again.auditLog(limit: 100).count == 5)
        withExtendedLifetime(after) {}
    }
}
