import Foundation
import Testing

@testable import KioskScenes

/// `kiosk-demo --dir F` replaces only a folder an earlier demo made, and only once the new one is complete.
@Suite struct DemoFolderTests {
    struct Boom: Error {}
    let fm = FileManager.default

    func siblings(of path: String) throws -> [String] {
        let parent = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        return try fm.contentsOfDirectory(atPath: parent).filter { $0.hasPrefix("." + name + ".") }
    }

    @Test func aNewFolderIsBuiltAsideAndMarked() throws {
        let dir = TestSetGeneratorSeedTests.temporaryFolder() + "/sub/demo"
        let staged = try DemoFolder(dir).build { staging -> String in
            #expect(!fm.fileExists(atPath: dir), "the demo folder appears only when complete")
            try "x".write(toFile: staging + "/kiosk.conf", atomically: true, encoding: .utf8)
            return staging
        }
        #expect(!fm.fileExists(atPath: staged))
        #expect(fm.fileExists(atPath: dir + "/kiosk.conf") && fm.fileExists(atPath: dir + "/" + DemoFolder.markerName))
        #expect(try siblings(of: dir).isEmpty)
        // A demo folder is replaced by the next demo.
        try DemoFolder(dir).build { staging in
            try "y".write(toFile: staging + "/kiosk.conf", atomically: true, encoding: .utf8)
        }
        #expect(try String(contentsOfFile: dir + "/kiosk.conf", encoding: .utf8) == "y")
        #expect(try siblings(of: dir).isEmpty)
    }

    @Test func aFailureLeavesTheOldDemoAndNothingPartial() throws {
        let dir = TestSetGeneratorSeedTests.temporaryFolder() + "/demo"
        try DemoFolder(dir).build { staging in
            try "old".write(toFile: staging + "/kiosk.conf", atomically: true, encoding: .utf8)
        }
        #expect(throws: Boom.self) {
            try DemoFolder(dir).build { staging in
                try "half".write(toFile: staging + "/kiosk.conf", atomically: true, encoding: .utf8)
                throw Boom()
            }
        }
        #expect(try String(contentsOfFile: dir + "/kiosk.conf", encoding: .utf8) == "old")
        #expect(try siblings(of: dir).isEmpty)
        let fresh = TestSetGeneratorSeedTests.temporaryFolder() + "/never"
        #expect(throws: Boom.self) { try DemoFolder(fresh).build { _ in throw Boom() } }
        #expect(!fm.fileExists(atPath: fresh))
        #expect(try siblings(of: fresh).isEmpty)
    }

    @Test func aFolderTheDemoDidNotMakeIsNeverTouched() throws {
        let dir = TestSetGeneratorSeedTests.temporaryFolder()
        let db = Data("the real event's check-ins".utf8)
        try db.write(to: URL(fileURLWithPath: dir + "/kiosk.db"))
        #expect(throws: DemoFolderError.self) { try DemoFolder(dir).build { _ in } }
        #expect(fm.contents(atPath: dir + "/kiosk.db") == db)
        // A marked folder holding something the demo did not make is refused too.
        try Data().write(to: URL(fileURLWithPath: dir + "/" + DemoFolder.markerName))
        try Data().write(to: URL(fileURLWithPath: dir + "/my-notes.txt"))
        do {
            try DemoFolder.checkReplaceable(dir)
            Issue.record("would replace a folder with foreign files")
        } catch {
            #expect(error.description.contains("also holds my-notes.txt"), "\(error)")
        }
        let file = dir + "/plain-file"
        try Data().write(to: URL(fileURLWithPath: file))
        #expect(throws: DemoFolderError.self) { try DemoFolder.checkReplaceable(file) }
        #expect(throws: DemoFolderError.self) { try DemoFolder.checkReplaceable(".") }
    }

    @Test func aDemoFolderMadeBeforeTheMarkerIsRecognised() throws {
        let dir = TestSetGeneratorSeedTests.temporaryFolder()
        try "# Demo kiosk made by 'kioskctl demo' (seed 5).\ndoor = Demo door\n".write(
            toFile: dir + "/kiosk.conf", atomically: true, encoding: .utf8)
        try Data().write(to: URL(fileURLWithPath: dir + "/kiosk.db"))
        try DemoFolder.checkReplaceable(dir)
        // The partial folder such a demo left when it failed (issue 6, defect 1) is recognised too.
        let partial = TestSetGeneratorSeedTests.temporaryFolder()
        try FileManager.default.createDirectory(atPath: partial + "/images/keys", withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: partial + "/images/unreadable-023-tiltedPerspective-480p.png"))
        try DemoFolder.checkReplaceable(partial)
    }
}
