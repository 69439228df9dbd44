import Foundation
import KioskRuntime
import Testing

/// A typo in the database path must not start an empty roster that turns every guest away.
@Suite struct MissingDatabaseTests {
    @Test func theKioskRefusesAMissingDatabaseAndSaysHowToMakeIt() throws {
        let folder = Fixtures.temporaryFolder()
        var c = try Fixtures.configuration(folder: folder)
        c.database = folder + "/kiosk-typo.db"
        do {
            _ = try Door(configuration: c, display: RecordingDisplay(), camera: .replay)
            Issue.record("opened a database that does not exist")
        } catch {
            #expect(error.description.contains(folder + "/kiosk-typo.db does not exist"))
            #expect(error.description.contains("check 'database' in \(c.file)"))
            #expect(error.description.contains("kioskctl roster import --config \(c.file)"))
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/kiosk-typo.db"))
    }

    @Test func kioskAndStatusDoNotCreateTheDatabaseButRosterImportDoes() async throws {
        let folder = Fixtures.temporaryFolder()
        let db = folder + "/state/kiosk.db"
        let conf = try String(contentsOfFile: Fixtures.configPath, encoding: .utf8)
            .replacingOccurrences(of: "database = .kiosk/kiosk.db", with: "database = \(db)")
            .replacingOccurrences(of: "test-images/", with: Fixtures.testImages + "/")
        try conf.write(toFile: folder + "/kiosk.conf", atomically: true, encoding: .utf8)

        let kiosk = try await Fixtures.run(
            "kiosk", ["--config", folder + "/kiosk.conf", "--replay", Fixtures.testImages])
        #expect(kiosk.0 != 0)
        #expect(kiosk.2.contains("\(db) does not exist"), "\(kiosk.2)")
        let status = try await Fixtures.run("kioskctl", ["status", "--config", folder + "/kiosk.conf"])
        #expect(status.0 != 0)
        #expect(status.2.contains("\(db) does not exist"), "\(status.2)")
        #expect(!FileManager.default.fileExists(atPath: db))

        let imported = try await Fixtures.run(
            "kioskctl",
            [
                "roster", "import", "--config", folder + "/kiosk.conf",
                "--csv", Fixtures.testImages + "/roster.csv",
            ])
        #expect(imported.0 == 0, "\(imported.2)")
        let after = try await Fixtures.run("kioskctl", ["status", "--config", folder + "/kiosk.conf"])
        #expect(after.0 == 0, "\(after.2)")
        #expect(after.1.contains("300 guests"))
    }

    @Test func rosterImportRefusesALatin1FileWithItsLine() async throws {
        let folder = Fixtures.temporaryFolder()
        let conf = try String(contentsOfFile: Fixtures.configPath, encoding: .utf8)
            .replacingOccurrences(of: "database = .kiosk/kiosk.db", with: "database = \(folder)/kiosk.db")
            .replacingOccurrences(of: "test-images/", with: Fixtures.testImages + "/")
        try conf.write(toFile: folder + "/kiosk.conf", atomically: true, encoding: .utf8)
        let csv = Data("guest_id,name\nAEAQCAIBAEAQCAIB,M".utf8) + Data([0xFC]) + Data("ller\n".utf8)
        try csv.write(to: URL(fileURLWithPath: folder + "/roster.csv"))

        let imported = try await Fixtures.run(
            "kioskctl",
            [
                "roster", "import", "--config", folder + "/kiosk.conf",
                "--csv", folder + "/roster.csv",
            ])
        #expect(imported.0 != 0)
        #expect(imported.2.contains("\(folder)/roster.csv: line 2: byte 0xFC"), "\(imported.2)")
        #expect(imported.2.contains("save the file as UTF-8"))
    }
}
