import Foundation
import ImageFiles
import KioskCore
import KioskDecoding
import KioskRuntime
import KioskScenes
import Logging
import Testing

/// Every golden image through the real decoder, then the whole folder through the real pipeline.
@Suite struct GoldenImageTests {
    static let entries = (try? Fixtures.manifest().entries) ?? []

    @Test func theManifestCoversEveryCase() throws {
        let conditions = Set(Self.entries.map(\.condition))
        for needed in [
            "plain", "wrong-event", "other-tenant", "forged-signature", "unknown-key", "cancelled",
            "not-in-roster", "no-code", "two-codes", "random-url", "garbage", "invalid-utf8", "truncated",
            "padded",
        ] + DoorCondition.allCases.map(\.rawValue) {
            #expect(conditions.contains(needed), "no test image for \(needed)")
        }
        let verdicts = Set(Self.entries.flatMap(\.verdicts))
        #expect(verdicts == ["admitted", "already_checked_in", "not_valid_here", "cancelled", "not_in_roster"])
    }

    @Test(arguments: entries)
    func decodesToWhatTheManifestSays(entry: TestManifest.Entry) throws {
        let frame = try ImageFile.read(path: Fixtures.testImages + "/" + entry.file)
        #expect(frame.width == entry.width && frame.height == entry.height)
        let codes = KioskDecoder().decode(frame).map { TestManifest.spell($0.payload) }
        #expect(codes.sorted() == entry.codes.sorted(), "\(entry.file) (\(entry.condition))")
    }

    @Test func replayGivesEveryVerdictOfTheManifest() async throws {
        let door = try Fixtures.door()
        let records = try await ReplayRunner(door: door, logger: Logger(label: "test"))
            .run(directory: Fixtures.testImages, fps: try Fixtures.manifest().replayFPS) { _ in }
        for entry in Self.entries {
            let got = records.filter { $0.file == entry.file }.map(\.verdict)
            #expect(got == entry.verdicts, "\(entry.file) (\(entry.condition))")
        }
        // Every admitted verdict was written and queued before it was shown; nothing else was.
        let admitted = records.filter { $0.verdict == "admitted" }
        let checkIns = try door.store.checkIns(event: door.configuration.event)
        #expect(checkIns.count == admitted.count)
        #expect(Set(checkIns.map(\.guest.text)) == Set(admitted.compactMap(\.guest)))
        #expect(try door.store.pendingCount() == admitted.count)
        // The audit log has one row per verdict, and says what the screen does not.
        let audit = try door.store.auditLog(limit: 1000)
        #expect(audit.count == records.count)
        let reasons = Dictionary(grouping: audit, by: \.verdict)["not_valid_here"]?.map(\.reason) ?? []
        for fragment in [
            "another event", "another tenant", "signature does not verify", "unknown key id 9", "malformed",
        ] {
            #expect(reasons.contains { $0.contains(fragment) }, "no audit reason mentioning \(fragment)")
        }
    }

    @Test func replayingTwiceChecksNobodyInTwice() async throws {
        let door = try Fixtures.door()
        let runner = ReplayRunner(door: door, logger: Logger(label: "test"))
        let first = try await runner.run(directory: Fixtures.testImages, fps: 0.2) { _ in }
        let second = try await runner.run(
            directory: Fixtures.testImages, fps: 0.2, start: Date().addingTimeInterval(3600)
        ) { _ in }
        #expect(first.filter { $0.verdict == "admitted" }.count > 10)
        #expect(second.filter { $0.verdict == "admitted" }.isEmpty)
        let checkIns = try door.store.checkIns(event: door.configuration.event)
        #expect(checkIns.count == first.filter { $0.verdict == "admitted" }.count)
    }
}
