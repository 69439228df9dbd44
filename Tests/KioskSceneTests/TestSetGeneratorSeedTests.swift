import Foundation
import Testing

@testable import KioskScenes

/// `kiosk-demo` draws fresh keys and scenes each time; the hardest door conditions must never make it fail.
@Suite struct TestSetGeneratorSeedTests {
    static func temporaryFolder() -> String {
        let path = NSTemporaryDirectory() + "kiosk-scene-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// How many seeds the long test takes: a tilted scene can take 60 draws through every decoder pass, about
    /// five minutes a seed in a debug build on a busy machine, so it runs only when asked:
    /// `KIOSK_GENERATOR_SEEDS=16 swift test -c release --filter TestSetGeneratorSeedTests`.
    static let seedCount = UInt64(ProcessInfo.processInfo.environment["KIOSK_GENERATOR_SEEDS"] ?? "") ?? 0

    /// A condition that does not read within the draws is left out, named in the manifest, and its unreadable
    /// image is not written (it would be replayed as a frame); the generator does not fail. Tilted perspective
    /// at severity 0.5 reads 0 of 8 in docs/benchmarks/2026-11-door-pipeline.md, and the seed is fixed, so one draw is always too few.
    @Test func aConditionThatDoesNotReadIsLeftOutAndNamed() throws {
        var generator = TestSetGenerator(fixture: try FixtureEvent(seed: 3, guestCount: 40), seed: 3)
        generator.includesVerdictCases = false
        generator.onlyConditions = [.tiltedPerspective]
        generator.maximumDraws = 1
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let manifest = try generator.write(to: folder)
        let left = try #require(manifest.omitted)
        #expect(manifest.entries.count + left.count == 2)
        #expect(
            left.first?.reason
                == "no readable tiltedPerspective scene in 1 draws (severity stepped down from 0.5 to 0.5)")
        for o in left { #expect(!FileManager.default.fileExists(atPath: folder + "/" + o.file)) }
        #expect(try TestManifest.load(folder + "/manifest.json").omitted == left)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("unreadable") }.isEmpty)
    }

    /// Tilted perspective (the condition that failed one demo in three), at 480p and 720p, for many seeds:
    /// each is either in the manifest and readable, or left out and named in the manifest; never an error.
    @Test(.enabled(if: seedCount > 0, "set KIOSK_GENERATOR_SEEDS to run it"))
    func theHardestConditionNeverFailsTheGenerator() throws {
        var omitted: [String] = []
        var made = 0
        for seed in UInt64(1)...Self.seedCount {
            let fixture = try FixtureEvent(seed: seed &* 0x9E37_79B9_7F4A_7C15, guestCount: 40)
            var generator = TestSetGenerator(fixture: fixture, seed: seed &* 0x9E37_79B9_7F4A_7C15)
            generator.includesVerdictCases = false
            generator.onlyConditions = [.tiltedPerspective]
            let folder = Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let manifest = try generator.write(to: folder)
            let left = manifest.omitted ?? []
            #expect(manifest.entries.count + left.count == 2, "seed \(seed)")
            for entry in manifest.entries {
                #expect(FileManager.default.fileExists(atPath: folder + "/" + entry.file))
            }
            for o in left {
                #expect(o.reason.contains("no readable tiltedPerspective scene in 60 draws"))
                #expect(
                    !FileManager.default.fileExists(atPath: folder + "/" + o.file),
                    "an unreadable image would be replayed")
            }
            made += manifest.entries.count
            omitted += left.map { "seed \(seed): \($0.file)" }
        }
        // Leaving a condition out is the exception: most scenes read.
        #expect(made * 2 >= Int(Self.seedCount) * 2, "left out: \(omitted)")
        print("tiltedPerspective over \(Self.seedCount) seeds: \(made) scenes made, left out: \(omitted)")
    }

    @Test func theGoldenManifestHasNoOmissions() throws {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let text = try String(contentsOf: url.appendingPathComponent("test-images/manifest.json"), encoding: .utf8)
        #expect(!text.contains("omitted"))
        #expect(try TestManifest.load(url.appendingPathComponent("test-images/manifest.json").path).omitted == nil)
    }
}
