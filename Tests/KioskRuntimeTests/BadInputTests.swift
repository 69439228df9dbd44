import Foundation
import GRDB
import KioskCore
import KioskRuntime
import Logging
import Testing

@testable @_spi(Testing) import KioskStore

/// Malformed things get a clear error or verdict and lose nothing already recorded.
@Suite struct BadInputTests {
    @Test func aFileThatIsNotSQLiteIsNamed() throws {
        let folder = Fixtures.temporaryFolder()
        try Data("this is not a database, it is a shopping list\n".utf8).write(
            to: URL(fileURLWithPath: folder + "/kiosk.db"))
        var c = try Fixtures.configuration(folder: folder)
        c.database = folder + "/kiosk.db"
        do {
            _ = try Door(configuration: c, display: RecordingDisplay(), camera: .replay)
            Issue.record("opened a file that is not SQLite")
        } catch {
            #expect(error.description.contains("not a kiosk database"))
            #expect(error.description.contains(folder + "/kiosk.db"))
        }
    }

    @Test func aCorruptImageInTheReplayIsSkippedAndNamed() async throws {
        let folder = Fixtures.temporaryFolder()
        try FileManager.default.copyItem(atPath: Fixtures.testImages + "/001-valid.png", toPath: folder + "/b.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).write(
            to: URL(fileURLWithPath: folder + "/a.png"))
        let door = try Fixtures.door()
        let records = try await ReplayRunner(door: door, logger: Logger(label: "t")).run(directory: folder, fps: 1) {
            _ in
        }
        #expect(records.map(\.file) == ["b.png"])
    }

    @Test func anEmptyReplayFolderIsAnError() async throws {
        let door = try Fixtures.door()
        await #expect(throws: KioskError.self) {
            try await ReplayRunner(door: door, logger: Logger(label: "t")).run(
                directory: Fixtures.temporaryFolder(), fps: 1
            ) { _ in }
        }
    }

    @Test func aLockedDatabaseGivesRecordFailedAndKeepsEarlierCheckIns() throws {
        let door = try Fixtures.door()
        let guests = try door.store.searchGuests(prefix: "", event: door.configuration.event, limit: 1000).filter {
            $0.status == .active
        }
        let t = Date()
        #expect(door.pipeline.checkManually(guest: guests[0].guest, at: t, typed: "x").verdict.name == "admitted")
        // Another process takes the write lock.
        var lockConfiguration = Configuration()
        lockConfiguration.allowsUnsafeTransactions = true  // the open transaction is the point
        let other = try DatabaseQueue(
            path: try DatabaseKey.forTesting(door.configuration).sqliteURI(forDatabaseAt: door.configuration.database),
            configuration: lockConfiguration)
        try other.writeWithoutTransaction { try $0.execute(sql: "BEGIN EXCLUSIVE") }
        let result = door.pipeline.checkManually(guest: guests[1].guest, at: t, typed: "y")
        #expect(result.verdict.name == "record_failed")
        #expect(result.verdict.reasonLine.contains("locked"))
        // Rejected scans in the window are not lost: their audit rows wait for the lock.
        let unknown = door.pipeline.reportUnknownCode("ZZZZ", at: t)
        #expect(unknown.verdict.name == "not_in_roster")
        #expect(door.store.pendingAuditRowCount == 2, "the failed admit and the unknown code")
        try other.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
        #expect(try door.store.checkIns(event: door.configuration.event).map(\.guest) == [guests[0].guest])
        #expect(door.pipeline.checkManually(guest: guests[1].guest, at: t, typed: "y").verdict.name == "admitted")
        #expect(
            try door.store.auditLog(limit: 4).map(\.verdict) == [
                "admitted", "record_failed", "not_in_roster", "admitted",
            ])
    }

    @Test func aBrokenConfigurationNamesFileAndLine() throws {
        let folder = Fixtures.temporaryFolder()
        try "door = A\nmode = maybe\n".write(toFile: folder + "/kiosk.conf", atomically: true, encoding: .utf8)
        do {
            _ = try ConfigurationFile.load(folder + "/kiosk.conf")
            Issue.record("accepted")
        } catch {
            #expect(error.description.contains(folder + "/kiosk.conf:2:"))
        }
    }
}

@Suite struct TrustedKeyErrorTests {
    @Test func aMissingKeyFileNamesTheConfigurationFileAndLine() throws {
        let folder = Fixtures.temporaryFolder()
        try "door = A\ntrusted_key = 1 keys/missing.pub.pem\n".write(
            toFile: folder + "/door.conf", atomically: true, encoding: .utf8)
        var c = try ConfigurationFile.load(folder + "/door.conf")
        c.database = folder + "/kiosk.db"
        do {
            _ = try Door(configuration: c, display: RecordingDisplay(), camera: .replay)
            Issue.record("opened a door without its key")
        } catch {
            #expect(error.description.contains(folder + "/door.conf:2:"))
            #expect(error.description.contains("keys/missing.pub.pem"))
        }
    }
}

@Suite struct StateFolderErrorTests {
    @Test func aDatabaseFolderThatCannotBeMadeIsNamedWithWhatToDo() throws {
        let folder = Fixtures.temporaryFolder()
        try Data("a file, not a folder".utf8).write(to: URL(fileURLWithPath: folder + "/state"))
        var c = try Fixtures.configuration(folder: folder)
        c.database = folder + "/state/kiosk.db"
        do {
            _ = try Door(configuration: c, display: RecordingDisplay(), camera: .replay, databaseMode: .createIfMissing)
            Issue.record("opened a database under a file")
        } catch {
            #expect(error.description.contains(folder + "/state/kiosk.db"))
            #expect(error.description.contains("point 'database' in kiosk.conf elsewhere"))
        }
    }
}
