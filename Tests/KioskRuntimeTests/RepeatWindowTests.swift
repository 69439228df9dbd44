import Foundation
import KioskRuntime
import Logging
import Testing

/// The same pass in consecutive frames, as a code held in front of the camera.
@Suite struct RepeatWindowTests {
    func folderWithCopies(_ n: Int) throws -> String {
        let folder = Fixtures.temporaryFolder()
        for i in 0..<n {
            try FileManager.default.copyItem(
                atPath: Fixtures.testImages + "/001-valid.png", toPath: folder + "/frame\(i).png")
        }
        return folder
    }

    @Test func aPassHeldInViewGivesOneVerdict() async throws {
        let door = try Fixtures.door()
        let records = try await ReplayRunner(door: door, logger: Logger(label: "t")).run(
            directory: try folderWithCopies(45), fps: 15
        ) { _ in }
        #expect(records.map(\.verdict) == ["admitted"])
    }

    @Test func shownAgainAfterTheWindowItIsAlreadyCheckedIn() async throws {
        let door = try Fixtures.door()
        let records = try await ReplayRunner(door: door, logger: Logger(label: "t")).run(
            directory: try folderWithCopies(3), fps: 0.25
        ) { _ in }
        #expect(records.map(\.verdict) == ["admitted", "already_checked_in", "already_checked_in"])
        #expect(records[1].door == door.configuration.door && records[1].checkedInAt == records[0].at)
        #expect(try door.store.checkIns(event: door.configuration.event).count == 1)
    }
}
