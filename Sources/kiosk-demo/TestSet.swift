import ArgumentParser
import Foundation
import KioskScenes

struct TestSet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "testset",
        abstract: "Generate the golden door images with their manifest (test-images/ is seed 1).")

    @Option(help: "Output folder.")
    var out = "test-images"

    @Option(help: "Seed: the same seed gives the same keys, roster and images.")
    var seed: UInt64 = 1

    func run() throws {
        var generator = TestSetGenerator(fixture: try FixtureEvent(seed: seed), seed: seed)
        let manifest = try generator.write(to: out)
        print("wrote \(manifest.entries.count) images, manifest.json, roster.csv and keys/ to \(out)")
    }
}
