import Foundation
import KioskCore
import Testing

@testable import KioskStore

@Suite("Opening a missing database only when told to create it")
struct OpenModeTests {
    @Test("a missing file is refused, named, with what to do, and not created")
    func missingFileRefused() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("kiosk-typo.db")
        let error = storeError { _ = try SQLiteDoorStore(path: path, mode: .openExisting) }

        #expect(error?.kind == .missing)
        #expect(error?.description.hasPrefix("\(path) does not exist") == true)
        #expect(error?.description.contains("kioskctl roster import") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing was created")
    }

    @Test("without create, a missing folder is a missing database too, and nothing is made")
    func missingFolderWithoutCreate() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("typo/kiosk.db")
        let error = storeError { _ = try SQLiteDoorStore(path: path, mode: .openExisting) }
        #expect(error?.kind == .missing)
        #expect(error?.description.hasPrefix("\(path) does not exist") == true)
        #expect(!FileManager.default.fileExists(atPath: folder.file("typo")))
    }

    @Test("create makes the file; then it opens without create and keeps what was written")
    func createThenOpen() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("kiosk.db")
        let key = DatabaseKey.random()
        do {
            let store = try SQLiteDoorStore(path: path, mode: .createIfMissing, key: key)
            try store.upsertGuests(Fixture.roster)
        }
        let store = try SQLiteDoorStore(path: path, mode: .openExisting, key: key)
        #expect(try store.guestCount(event: Fixture.event) == Fixture.roster.count)
    }

    @Test("an in-memory database needs no file")
    func inMemory() throws {
        let store = try SQLiteDoorStore(path: SQLiteDoorStore.inMemory, mode: .openExisting)
        #expect(try store.pendingCount() == 0)
    }
}
