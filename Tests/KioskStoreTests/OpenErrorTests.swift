import Foundation
import KioskCore
import Testing

@testable import KioskStore

@Suite("Errors an operator can act on")
struct OpenErrorTests {
    @Test("a file that is not SQLite is named, with what to do")
    func notSQLite() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("roster.csv")
        try String(repeating: "guest_id,name\nAEAQCAIBAEAQCAIB,Ann\n", count: 50).write(
            toFile: path, atomically: true,
            encoding: .utf8)
        let error = storeError { _ = try SQLiteDoorStore(path: path, mode: .createIfMissing, key: .random()) }

        #expect(error?.kind == .notADatabase)
        #expect(error?.primaryResultCode == 26)
        #expect(
            error?.description
                == "\(path) is not a kiosk database (not SQLite): move it away or point 'database' in kiosk.conf elsewhere"
        )
    }

    @Test("a missing folder is an error, not a silently created one")
    func missingFolder() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("no-such-folder/kiosk.db")
        let error = storeError { _ = try SQLiteDoorStore(path: path, mode: .createIfMissing) }

        #expect(error?.kind == .folderMissing)
        #expect(error?.description.contains("the folder \(folder.path)/no-such-folder does not exist") == true)
        #expect(!FileManager.default.fileExists(atPath: folder.file("no-such-folder")))
    }

    @Test("a database another process holds is reported as locked after the busy timeout, and reads go on")
    func locked() throws {
        let db = try TestDatabase(.file)
        let store = try db.open(busyTimeout: .milliseconds(100))
        try store.upsertGuests(Fixture.roster)
        let other = try LockHolder(path: db.path, key: db.key)

        let scan = Fixture.checkIn(Fixture.anna, at: 1)
        let started = ContinuousClock.now
        let error = storeError { _ = try store.record(checkIn: scan, attempt: Fixture.attempt(for: scan)) }
        let waited = ContinuousClock.now - started

        #expect(error?.kind == .busy)
        #expect(error?.primaryResultCode == 5)
        #expect(error?.description.contains("locked by another process") == true)
        #expect(error?.description.contains(db.path) == true)
        #expect(waited >= .milliseconds(90), "waited the busy timeout")
        // WAL: the door can still look guests up while a writer holds the lock.
        #expect(try store.lookUp(guest: Fixture.anna.guest, event: Fixture.event) == .admissible(Fixture.anna))

        try other.release()
        #expect(try store.record(checkIn: scan, attempt: Fixture.attempt(for: scan)) == .recorded)
    }

    @Test("opening a new database another process holds fails as locked")
    func lockedWhileMigrating() throws {
        let db = try TestDatabase(.file)
        let other = try LockHolder(
            path: db.path, key: db.key,
            sql: "PRAGMA journal_mode = WAL; BEGIN EXCLUSIVE; CREATE TABLE holder (x)")

        let error = storeError { _ = try db.open(busyTimeout: .milliseconds(50)) }
        #expect(error?.kind == .busy)
        try other.release()
        _ = try db.open()
    }

    @Test("a corrupt database is reported as corrupt")
    func corrupt() throws {
        let db = try TestDatabase(.file)
        do {
            let store = try db.open()
            try store.upsertGuests(Fixture.roster)
        }  // closing the last connection checkpoints the WAL into the file
        // Overwrite page 1 after the 100-byte header: the schema's b-tree page.
        let file = try #require(FileHandle(forUpdatingAtPath: db.path))
        try file.seek(toOffset: 100)
        try file.write(contentsOf: Data(repeating: 0x5A, count: 400))
        try file.close()

        let error = storeError { _ = try db.open() }
        #expect(error?.kind == .corrupt)
        #expect(error?.primaryResultCode == 11)
        #expect(error?.description.hasPrefix("\(db.path) is corrupt") == true)
        #expect(error?.description.contains("keep a copy of the file") == true)
    }

    @Test(
        "each kind of SQLite failure gets its own advice",
        arguments: [
            (Int32(8), StoreError.Kind.readOnly, "cannot be written"),
            (Int32(264), .readOnly, "cannot be written"),  // SQLITE_READONLY_DBMOVED
            (Int32(14), .cannotOpen, "cannot open"),
            (Int32(13), .diskFull, "disk full"),
            (Int32(10), .ioError, "the disk failed"),
            (Int32(517), .busy, "locked by another process"),  // SQLITE_BUSY_SNAPSHOT
            (Int32(6), .busy, "locked by another process"),
            (Int32(11), .corrupt, "is corrupt"),
            (Int32(8202), .corrupt, "is corrupt"),  // SQLITE_IOERR_DATA: an encrypted page failed its check
            (Int32(1), .other, "database error"),
        ])
    func descriptions(_ code: Int32, _ kind: StoreError.Kind, _ phrase: String) {
        let error = StoreError(
            resultCode: code, message: "msg", operation: "running guest lookup statement",
            path: "/var/lib/kiosk/kiosk.db")
        #expect(error.kind == kind)
        #expect(error.description.contains(phrase))
        #expect(error.description.contains("/var/lib/kiosk/kiosk.db"))
        #expect(error.description.contains("running guest lookup statement"))
    }
}
