import ArgumentParser
import Foundation
import ImageFiles
import KioskCore
import KioskDecoding
import KioskScenes
import QREncoding

/// Read rates of bare zbar and of the kiosk's decoder on door conditions.
struct RobustnessBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "robustness", abstract: "Read rate per door condition.")

    @Option(help: "Scenes per condition and severity.") var seeds = 8
    @Option(help: "The golden images folder.") var testImages = "test-images"
    @Option(help: "Write the scenes the kiosk decoder could not read into this folder.") var dumpFailures: String?

    func run() throws {
        let zbar = ZBarScanner()
        let decoder = KioskDecoder()
        // 1. The golden robustness images.
        if let manifest = try? TestManifest.load(testImages + "/manifest.json") {
            var zbarReads = 0
            var kioskReads = 0
            var n = 0
            for e in manifest.entries where e.robustness {
                let frame = try ImageFile.read(path: testImages + "/" + e.file)
                n += 1
                if Set(zbar.scan(frame).map(TestManifest.spell)) == Set(e.codes) { zbarReads += 1 }
                if Set(decoder.decode(frame).map { TestManifest.spell($0.payload) }) == Set(e.codes) { kioskReads += 1 }
            }
            print("## Read rate on the golden robustness images (\(testImages))\n")
            print(
                table(
                    ["images", "zbar alone", "kiosk decoder"], [["\(n)", "\(zbarReads)/\(n)", "\(kioskReads)/\(n)"]]))
            print()
        }
        // 2. A sweep of every condition, severities 0.5 and 1.0, fresh random scenes (none filtered).
        print(
            "## Read rate on a sweep of door scenes (\(seeds) random scenes per cell, pass URLs of QR version 10, 640x480)\n"
        )
        var rows: [[String]] = []
        var totals = (zbar: 0, kiosk: 0, n: 0)
        let fixture = try FixtureEvent(seed: 11, guestCount: 1)
        let url = try fixture.passURL(for: fixture.guests[0].guest)
        let code = try QRCodeRenderer.render(url)
        var rng = SplitMix64(seed: 99)
        var passCounts: [String: Int] = [:]
        for condition in DoorCondition.allCases {
            var cells: [String] = [condition.rawValue]
            for severity in [0.5, 1.0] {
                var z = 0
                var k = 0
                for _ in 0..<seeds {
                    let frame = DoorScenes.render(
                        condition, code: code.image, moduleSize: 8, severity: severity, rng: &rng)
                    if zbar.scan(frame).contains(Array(url.utf8)) { z += 1 }
                    let found = decoder.decode(frame)
                    if found.contains(where: { $0.payload == Array(url.utf8) }) {
                        k += 1
                        passCounts[found[0].foundBy, default: 0] += 1
                    } else if let dumpFailures {
                        try? FileManager.default.createDirectory(
                            atPath: dumpFailures, withIntermediateDirectories: true)
                        try ImageFile.writePNG(
                            frame, to: "\(dumpFailures)/\(condition.rawValue)-\(severity)-\(totals.n + seeds - k).png")
                    }
                }
                totals.zbar += z
                totals.kiosk += k
                totals.n += seeds
                cells += ["\(z)/\(seeds)", "\(k)/\(seeds)"]
            }
            rows.append(cells)
        }
        rows.append(["all (both severities)", "\(totals.zbar)/\(totals.n)", "\(totals.kiosk)/\(totals.n)", "", ""])
        print(table(["condition", "zbar, sev 0.5", "kiosk, sev 0.5", "zbar, sev 1.0", "kiosk, sev 1.0"], rows))
        print(
            "\nreads by the kiosk decoder, by the pass that found the code: "
                + passCounts.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                + "\n")
    }
}
