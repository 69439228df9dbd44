import Foundation
import KioskCore
import KioskDisplay
import KioskRuntime
import KioskScenes
import KioskStore
import TestSupport

/// Paths of the package and its golden images, and helpers that make doors in temporary folders.
enum Fixtures {
    static let packageRoot = ChildProcess.packageRoot
    static let testImages = packageRoot + "/test-images"
    static let configPath = packageRoot + "/kiosk.conf"

    static func temporaryFolder() -> String {
        TestFolders.make("kiosk-test")
    }

    /// The shipped kiosk.conf, with its database moved to a fresh temporary folder.
    static func configuration(mode: CheckInMode = .auto, folder: String = temporaryFolder()) throws
        -> KioskConfiguration
    {
        var c = try ConfigurationFile.load(configPath)
        c.database = folder + "/kiosk.db"
        c.databaseKeyFile = folder + "/" + TestDatabaseKey.relativePath
        try TestDatabaseKey.write(to: folder + "/" + TestDatabaseKey.relativePath)
        c.mode = mode
        return c
    }

    /// A door on the test-images event with its roster imported.
    static func door(mode: CheckInMode = .auto, display: any StatusDisplay = RecordingDisplay()) throws -> Door {
        let c = try configuration(mode: mode)
        let door = try Door(configuration: c, display: display, camera: .replay, databaseMode: .createIfMissing)
        _ = try door.store.importRoster(
            csv: String(contentsOfFile: testImages + "/roster.csv", encoding: .utf8),
            tenant: c.tenant, event: c.event)
        return door
    }

    static func manifest() throws -> TestManifest { try TestManifest.load(testImages + "/manifest.json") }

    /// Runs an executable of the package; returns its exit status, standard output and standard error.
    static func run(_ executable: String, _ arguments: [String], currentDirectory: String = packageRoot) async throws
        -> (
            Int32, String, String
        )
    {
        try await ChildProcess.run(executable, arguments, in: currentDirectory)
    }
}

/// A display that keeps what it was asked to show, for assertions.
final class RecordingDisplay: StatusDisplay {
    var screens: [DoorScreen] = []
    func show(_ screen: DoorScreen) { screens.append(screen) }
    var last: DoorScreen? { screens.last }
}
