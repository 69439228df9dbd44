import Cryptography
import Foundation
import GRDB
import KioskCore
import PassFormat
import SignedRecords
import Testing

@testable import KioskStore

/// Issue 49, finding 9: a sealed page opens only in its database and at its place. Pages swapped, moved between
/// the database file and its WAL or between WAL frames, copied from another database under the same key, or
/// zeroed, are refused (`SQLITE_IOERR_DATA`) rather than read as data; a database of unbound pages (format 1) is
/// rewritten bound at its first open, keeping every row and the queue.
@Suite("Kiosk database pages bound to their place")
struct PageBindingTests {
    /// `SQLITE_IOERR_DATA`: the encrypting VFS refused a page.
    static let refused: Int32 = 10 | (32 << 8)

    /// The SQLite result code a store call failed with, or nil when it did not fail.
    static func failure(_ body: () throws -> Void) -> Int32? {
        do {
            try body()
            return nil
        } catch let error as StoreError {
            return error.resultCode
        } catch {
            return -1
        }
    }

    /// The root page of each table of `store`.
    static func rootPages(_ store: SQLiteDoorStore) throws -> [String: Int] {
        try store.database.read { db in
            var pages: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, rootpage FROM sqlite_master WHERE type = 'table'") {
                pages[row["name"]] = row["rootpage"]
            }
            return pages
        }
    }

    /// A database with `roster` and two check-ins, closed after a checkpoint (every page in the file, the WAL
    /// empty); its tables' root pages.
    static func closedDatabase(
        _ db: TestDatabase, roster: [RosterGuest] = Fixture.roster + [AtRestTests.guest]
    ) throws -> [String: Int] {
        let store = try db.open()
        try store.upsertGuests(roster)
        for (n, guest) in roster.prefix(2).enumerated() {
            let checkIn = Fixture.checkIn(guest, at: 10 + n)
            #expect(try store.record(checkIn: checkIn, attempt: Fixture.attempt(for: checkIn)) == .recorded)
        }
        try store.database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        return try rootPages(store)
    }

    static func page(_ number: Int, of path: String) throws -> Data {
        let file = try #require(FileHandle(forReadingAtPath: path))
        defer { try? file.close() }
        try file.seek(toOffset: UInt64((number - 1) * PageLayout.size))
        return try #require(try file.read(upToCount: PageLayout.size))
    }

    static func write(_ bytes: Data, at offset: Int, of path: String) throws {
        let file = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? file.close() }
        try file.seek(toOffset: UInt64(offset))
        try file.write(contentsOf: bytes)
    }

    static func write(_ page: Data, as number: Int, into path: String) throws {
        try write(page, at: (number - 1) * PageLayout.size, of: path)
    }

    /// The frames of the current generation of the WAL at `path` that hold page `number`, oldest first: where
    /// each page starts in the file, and its bytes.
    static func frames(of number: Int, inWAL path: String) throws -> [(offset: Int, page: Data)] {
        let wal = try Data(contentsOf: URL(fileURLWithPath: path))
        let salts = wal[16..<24]
        var found: [(offset: Int, page: Data)] = []
        var header = PageLayout.walHeader
        while header + PageLayout.frame <= wal.count {
            let pageNumber = wal[header..<(header + 4)].reduce(0) { $0 << 8 | Int($1) }
            if pageNumber == number && wal[(header + 8)..<(header + 16)] == salts {
                let start = header + PageLayout.frameHeader
                found.append((start, wal[start..<(start + PageLayout.size)]))
            }
            header += PageLayout.frame
        }
        return found
    }

    /// The page format of each page of the database file at `path`.
    static func pageFormats(of path: String) throws -> [PageCipher.Format?] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        return stride(from: 0, to: bytes.count, by: PageLayout.size).map { start in
            bytes[start..<(start + PageLayout.size)].withUnsafeBytes { PageCipher.format(of: $0) }
        }
    }

    @Test("two pages of the file swapped: neither opens, and neither table shows the other's rows")
    func swappedPages() throws {
        let db = try TestDatabase(.file)
        let roots = try Self.closedDatabase(db)
        let checkIns = try #require(roots["check_ins"])
        let queue = try #require(roots["sync_queue"])
        let checkInsPage = try Self.page(checkIns, of: db.path)
        try Self.write(try Self.page(queue, of: db.path), as: checkIns, into: db.path)
        try Self.write(checkInsPage, as: queue, into: db.path)

        let store = try db.open(mode: .openExisting)
        #expect(Self.failure { _ = try store.checkIns(event: Fixture.event) } == Self.refused)
        #expect(Self.failure { _ = try store.pendingCheckIns(limit: 10) } == Self.refused)
        #expect(try store.guestCount(event: Fixture.event) == Fixture.roster.count + 1)
    }

    @Test("a page of another database under the same key does not open, and its rows are not shown")
    func pageFromAnotherDatabase() throws {
        let key = DatabaseKey.random()
        let ours = try TestDatabase(.file, key: key)
        let theirs = try TestDatabase(.file, key: key)
        let guest = AtRestTests.guest
        var impostor = guest
        impostor.name = "Zebediah Quarmby-Fotheringax"
        let roots = try Self.closedDatabase(ours, roster: Fixture.roster + [guest])
        let theirRoots = try Self.closedDatabase(theirs, roster: Fixture.roster + [impostor])
        let roster = try #require(roots["roster"])
        #expect(theirRoots["roster"] == roster)
        try Self.write(try Self.page(roster, of: theirs.path), as: roster, into: ours.path)

        let store = try ours.open(mode: .openExisting)
        #expect(Self.failure { _ = try store.lookUp(guest: guest.guest, event: Fixture.event) } == Self.refused)
    }

    @Test("a WAL frame's page copied into the database file at its page number does not open there")
    func walPageInDatabaseFile() throws {
        let db = try TestDatabase(.file)
        let store = try db.open()
        try store.upsertGuests(Fixture.roster)
        for (n, guest) in Fixture.roster.prefix(2).enumerated() {
            let checkIn = Fixture.checkIn(guest, at: 10 + n)
            #expect(try store.record(checkIn: checkIn, attempt: Fixture.attempt(for: checkIn)) == .recorded)
        }
        try store.database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        let third = Fixture.checkIn(Fixture.roster[2], at: 12)
        #expect(try store.record(checkIn: third, attempt: Fixture.attempt(for: third)) == .recorded)
        let root = try #require(try Self.rootPages(store)["check_ins"])
        // The files as they are now, the third check-in in the WAL only.
        let copy = try CrashRecoveryTests.crashCopy(of: db)
        withExtendedLifetime(store) {}
        let newer = try #require(try Self.frames(of: root, inWAL: copy.path + "-wal").last)
        try Self.write(newer.page, as: root, into: copy.path)
        try FileManager.default.removeItem(atPath: copy.path + "-wal")

        let reopened = try copy.open(mode: .openExisting)
        #expect(Self.failure { _ = try reopened.checkIns(event: Fixture.event) } == Self.refused)
    }

    @Test("a committed WAL frame's page replaced by an older frame of the same page, or zeroed, does not open")
    func walFramesBoundToTheirFrame() throws {
        let db = try TestDatabase(.file)
        let store = try db.open()
        try store.upsertGuests(Fixture.roster)
        try store.database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        for (n, guest) in Fixture.roster.prefix(2).enumerated() {
            let checkIn = Fixture.checkIn(guest, at: 10 + n)
            #expect(try store.record(checkIn: checkIn, attempt: Fixture.attempt(for: checkIn)) == .recorded)
        }
        let root = try #require(try Self.rootPages(store)["check_ins"])
        let frames = try Self.frames(of: root, inWAL: db.path + "-wal")
        try #require(frames.count >= 2)
        // While `store` keeps the WAL's index live, a second store reads the newest frame of the page without
        // recovering the WAL: first the older frame's page put in its place (a rollback), then zeros.
        try Self.write(frames[0].page, at: frames.last!.offset, of: db.path + "-wal")
        let other = try db.open(mode: .openExisting)
        #expect(Self.failure { _ = try other.checkIns(event: Fixture.event) } == Self.refused)
        try Self.write(Data(count: PageLayout.size), at: frames.last!.offset, of: db.path + "-wal")
        #expect(Self.failure { _ = try other.checkIns(event: Fixture.event) } == Self.refused)
        withExtendedLifetime(store) {}
    }

    @Test("a page of the file zeroed does not read as a page of zeros")
    func zeroedPage() throws {
        let db = try TestDatabase(.file)
        let roots = try Self.closedDatabase(db)
        try Self.write(Data(count: PageLayout.size), as: try #require(roots["check_ins"]), into: db.path)

        let store = try db.open(mode: .openExisting)
        #expect(Self.failure { _ = try store.checkIns(event: Fixture.event) } == Self.refused)
        #expect(try store.pendingCount() == 2)
    }

    @Test(
        "a database of unbound pages (format 1) is rewritten bound at its first open, keeping every row and the queue")
    func formatOneRewritten() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("kiosk.db")
        let key = DatabaseKey.random()
        let before = try FormatOneDatabase.make(
            at: path, key: key, fill: { store in try AtRestTests.fill(store) },
            more: { store in
                // A commit left in the WAL, as a kiosk killed before its checkpoint leaves it.
                let late = Fixture.checkIn(Fixture.bob, at: 12)
                #expect(try store.record(checkIn: late, attempt: Fixture.attempt(for: late)) == .recorded)
                return (
                    pending: try store.pendingCheckIns(limit: 100), checkIns: try store.checkIns(event: Fixture.event),
                    audit: try store.auditLog(limit: 100), guests: try store.guestCount(event: Fixture.event)
                )
            })
        #expect(Set(try Self.pageFormats(of: path)) == [.unbound])
        #expect(before.pending.count == 3)

        do {
            let store = try SQLiteDoorStore(path: path, mode: .openExisting, key: key)
            #expect(try store.pendingCheckIns(limit: 100) == before.pending)
            #expect(try store.checkIns(event: Fixture.event) == before.checkIns)
            #expect(try store.auditLog(limit: 100) == before.audit)
            #expect(try store.guestCount(event: Fixture.event) == before.guests)
            #expect(try store.enrolment() == AtRestTests.enrolment)
            #expect(Set(try Self.pageFormats(of: path)) == [.bound])
            #expect(try AtRestTests.secretsFound(in: path) == [])
            // The queue goes on: a new admit takes the next sequence.
            let next = Fixture.checkIn(Fixture.emile, at: 13)
            #expect(try store.record(checkIn: next, attempt: Fixture.attempt(for: next)) == .recorded)
            #expect(try store.pendingCheckIns(limit: 100).map(\.sequence).last! > before.pending.last!.sequence)
        }
        #expect(!FileManager.default.fileExists(atPath: path + ".encrypting"))
        let reopened = try SQLiteDoorStore(path: path, mode: .openExisting, key: key)
        #expect(try reopened.pendingCount() == before.pending.count + 1)
        #expect(Set(try Self.pageFormats(of: path)) == [.bound])
    }
}

extension PageBindingTests {
    @Test("a page SQLite writes twice in one transaction (spilled to the WAL, then rewritten in its frame) reads back")
    func pageRewrittenInItsFrame() throws {
        let db = try TestDatabase(.file)
        let store = try db.open()
        let digest = "SELECT count(*) || ':' || group_concat(hex(substr(body, 1, 8)), '') FROM spill"
        let expected = try store.database.writeWithoutTransaction { db in
            // A page cache of 8 pages: the transaction spills pages to the WAL before it commits, then changes
            // them again, which SQLite writes over their frames (their headers written before, read back here).
            try db.execute(sql: "PRAGMA cache_size = 8")
            try db.execute(sql: "CREATE TABLE spill (id INTEGER PRIMARY KEY, body BLOB NOT NULL)")
            try db.inTransaction {
                for id in 0..<400 {
                    try db.execute(sql: "INSERT INTO spill VALUES (?, zeroblob(1000))", arguments: [id])
                }
                try db.execute(sql: "UPDATE spill SET body = randomblob(1000)")
                return .commit
            }
            return try String.fetchOne(db, sql: digest)
        }
        #expect(expected?.hasPrefix("400:") == true)
        let other = try db.open(mode: .openExisting)
        #expect(try other.database.read { try String.fetchOne($0, sql: digest) } == expected)
        // After a crash, through WAL recovery.
        let copy = try CrashRecoveryTests.crashCopy(of: db)
        let after = try copy.open(mode: .openExisting)
        #expect(try after.database.read { try String.fetchOne($0, sql: digest) } == expected)
        withExtendedLifetime((store, other)) {}
    }
}
