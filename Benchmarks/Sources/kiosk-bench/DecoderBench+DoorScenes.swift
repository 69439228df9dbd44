import Foundation
import GrayImage
import ImageFiles
import KioskCore
import KioskDecoding
import KioskScenes
import QREncoding

/// The door scenes: every condition at severities 0.5 and 1.0 (fresh random scenes, none filtered), the golden
/// robustness images, and frames with no code.
struct DoorSceneBench {
    let engines: BenchEngines
    let seeds: Int
    let testImages: String
    let passes: Bool
    /// Sharp busy things (`SceneClutter`) in each scene.
    let clutter: Int

    func run() throws {
        let fixture = try FixtureEvent(seed: 11, guestCount: 1)
        let url = try fixture.passURL(for: fixture.guests[0].guest)
        let payload = Array(url.utf8)
        let code = try QRCodeRenderer.render(url)
        var rng = SplitMix64(seed: 99)
        let cluttered = clutter > 0 ? ", \(clutter) busy things in view (SceneClutter)" : ""
        print(
            "## Door scenes: \(seeds) random scenes per condition and severity (pass URLs, QR version 10, 640x480"
                + "\(cluttered))\n")
        var milliseconds: [BenchEngines.Name: Double] = [:]
        var rows: [[String]] = []
        var totals: [BenchEngines.Name: Int] = [:]
        var passReads: [DecoderSettings.Pass: (reads: Int, ms: Double)] = [:]
        var foundBy: [String: Int] = [:]
        var n = 0
        for condition in DoorCondition.allCases {
            var cells: [String] = [condition.rawValue]
            for severity in [0.5, 1.0] {
                var reads: [BenchEngines.Name: Int] = [:]
                for _ in 0..<seeds {
                    let frame = DoorScenes.render(
                        condition, code: code.image, moduleSize: 8, severity: severity, clutter: clutter, rng: &rng)
                    for name in BenchEngines.Name.allCases {
                        var read: [[UInt8]] = []
                        milliseconds[name, default: 0] += Stopwatch.milliseconds { read = engines.read(name, frame) }
                        if read.contains(payload) { reads[name, default: 0] += 1 }
                    }
                    if let first = engines.kiosk.decode(frame).first { foundBy[first.foundBy, default: 0] += 1 }
                    if passes {
                        for pass in BenchEngines.allPasses {
                            var found: [DecodedCode] = []
                            let ms = Stopwatch.milliseconds { found = engines.kiosk.decode(frame, pass: pass) }
                            let read = found.contains { $0.payload == payload } ? 1 : 0
                            passReads[pass] = ((passReads[pass]?.reads ?? 0) + read, (passReads[pass]?.ms ?? 0) + ms)
                        }
                    }
                }
                n += seeds
                for name in BenchEngines.Name.allCases {
                    totals[name, default: 0] += reads[name] ?? 0
                    cells.append("\(reads[name] ?? 0)/\(seeds)")
                }
            }
            rows.append(cells)
        }
        rows.append(
            ["**all**"] + BenchEngines.Name.allCases.map { "\(totals[$0] ?? 0)/\(n)" } + ["", "", ""])
        print(
            table(
                [
                    "condition", "kiosk 0.5", "zbar 0.5", "zxing 0.5", "kiosk 1.0", "zbar 1.0", "zxing 1.0",
                ], rows))
        print(
            "\nmean ms per scene: "
                + BenchEngines.Name.allCases.map {
                    let total = milliseconds[$0] ?? 0
                    let ratio = total / max(milliseconds[.zbar] ?? 0, 1e-9)
                    return "\($0.rawValue) \(f2(total / Double(max(n, 1)))) (\(f2(ratio))x zbar)"
                }.joined(separator: ", "))
        print(
            "\nreads by the kiosk decoder, by the pass that found the code: "
                + foundBy.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                + "\n")
        if passes {
            print("### Each pass alone: door scenes\n")
            print(
                table(
                    ["pass", "reads", "ms per frame"],
                    passReads.sorted { $0.value.reads > $1.value.reads }.map {
                        [$0.key.description, "\($0.value.reads)/\(n)", f2($0.value.ms / Double(n))]
                    }))
            print()
        }
        try golden()
        var emptyRng = SplitMix64(seed: 7)
        var falseReads: [BenchEngines.Name: Int] = [:]
        let empties = 100
        for _ in 0..<empties {
            let frame = DoorScenes.empty(clutter: clutter, rng: &emptyRng)
            for name in BenchEngines.Name.allCases { falseReads[name, default: 0] += engines.read(name, frame).count }
        }
        print("## Reads on \(empties) door frames with no code (must be 0)\n")
        print(
            table(
                BenchEngines.Name.allCases.map(\.rawValue),
                [BenchEngines.Name.allCases.map { "\(falseReads[$0] ?? 0)" }]))
        print()
    }

    private func golden() throws {
        guard let manifest = try? TestManifest.load(testImages + "/manifest.json") else { return }
        var reads: [BenchEngines.Name: Int] = [:]
        var n = 0
        for entry in manifest.entries where entry.robustness {
            let frame = try ImageFile.read(path: testImages + "/" + entry.file)
            n += 1
            for name in BenchEngines.Name.allCases
            where Set(engines.read(name, frame).map(TestManifest.spell)) == Set(entry.codes) {
                reads[name, default: 0] += 1
            }
        }
        print("## The golden robustness images (\(testImages))\n")
        print(
            table(
                BenchEngines.Name.allCases.map(\.rawValue),
                [BenchEngines.Name.allCases.map { "\(reads[$0] ?? 0)/\(n)" }]))
        print()
    }
}

/// Median time per 640x480 frame, with a readable code in view and with none, against bare zbar in the same run.
struct DecoderTimingBench {
    let engines: BenchEngines
    let frames: Int
    /// Where to write the frames that ran the whole cascade (nil: nowhere).
    var wholeCascadeFolder: String? = nil

    func run() {
        let fixture = try? FixtureEvent(seed: 11, guestCount: 1)
        guard let fixture, let url = try? fixture.passURL(for: fixture.guests[0].guest),
            let code = try? QRCodeRenderer.render(url)
        else { return }
        var rng = SplitMix64(seed: 5)
        // Ordinary door frames, then cluttered ones (three sharp busy things each: patterned clothing, print, a
        // keyboard, moire, other barcodes; `SceneClutter`), each with a readable code and with none.
        var sets: [(label: String, frames: [GrayFrame])] = []
        for (clutter, name) in [(0, ""), (3, ", cluttered")] {
            var withCode: [GrayFrame] = []
            while withCode.count < frames {
                let frame = DoorScenes.render(
                    .plain, code: code.image, moduleSize: 8, severity: 0.5, clutter: clutter, rng: &rng)
                // Frames every decoder reads, so the times compare the same work.
                if !engines.zbar.scan(frame).isEmpty && !engines.kiosk.decode(frame).isEmpty { withCode.append(frame) }
            }
            let noCode = (0..<frames).map { _ in DoorScenes.empty(clutter: clutter, rng: &rng) }
            sets += [("a code in view" + name, withCode), ("no code in view" + name, noCode)]
        }
        let gate = FinderPatternGate()
        for (label, set) in sets {
            let counts = set.map { gate.finderCount($0, stopAt: 50) }
            print("Finder gate, \(label): patterns found \(counts.sorted())")
        }
        // The gate's own look, which every frame pays (at the limit the decoder looks with).
        let looks = sets.map { label, set in
            let ms = (0..<3).flatMap { _ in
                set.map { frame in
                    Stopwatch.milliseconds {
                        _ = gate.finders(frame, stopAt: KioskDecoder.findersLooked, aslant: true)
                    }
                }
            }
            return "\(label) \(f3(ms.median)) / \(f3(ms.reduce(0, +) / Double(max(ms.count, 1))))"
        }
        print("The finder gate's look, median / mean ms per frame: " + looks.joined(separator: "; "))
        // What a frame costs is mostly whether the cascade went past its gate, and whether whole or the grids alone.
        var wholeCascade: [(label: String, frames: [GrayFrame])] = []
        for (label, set) in sets {
            var past = 0
            var whole: [GrayFrame] = []
            for frame in set {
                _ = engines.kiosk.decode(frame)
                if engines.kiosk.passesTried.count > (engines.kiosk.settings.gatedFrom ?? .max) { past += 1 }
                if engines.kiosk.ranTheWholeCascade { whole.append(frame) }
            }
            print(
                "Frames that went past the gate, \(label): \(past) of \(set.count) (the whole cascade: \(whole.count))")
            wholeCascade.append((label, whole))
            if let folder = wholeCascadeFolder {
                let stem = label.replacingOccurrences(of: " ", with: "-").replacingOccurrences(of: ",", with: "")
                do {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    for (index, frame) in whole.enumerated() {
                        try ImageFile.writePGM(frame, to: "\(folder)/\(stem)-\(index).pgm")
                    }
                } catch {
                    print(
                        "--whole-cascade-frames \(folder): could not write the frames (\(error)); give a folder you can write"
                    )
                }
            }
        }
        // Where the whole cascade's time goes: each pass alone, on the frames that ran it whole.
        for (label, heavy) in wholeCascade where !heavy.isEmpty {
            let costs = engines.kiosk.settings.passes.map { pass in
                let ms = heavy.map { frame in Stopwatch.milliseconds { _ = engines.kiosk.decode(frame, pass: pass) } }
                return "\(pass) \(f2(ms.reduce(0, +) / Double(ms.count)))"
            }
            print(
                "Mean ms of each pass alone on the \(heavy.count) frames through the whole cascade, \(label): "
                    + costs.joined(separator: ", "))
        }
        let falseReads = sets.filter { $0.label.hasPrefix("no code") }.flatMap(\.frames).map {
            engines.kiosk.decode($0).count
        }.reduce(0, +)
        print("\nReads by the kiosk decoder on the frames with no code (must be 0): \(falseReads)\n")
        print("## Median ms per 640x480 frame (\(frames) frames each; ratio to bare zbar in the same run)\n")
        var rows: [[String]] = []
        var meanRows: [[String]] = []
        var slowest: [String] = []
        for (label, set) in sets {
            var medians: [BenchEngines.Name: Double] = [:]
            var means: [BenchEngines.Name: Double] = [:]
            for name in BenchEngines.Name.allCases {
                var times: [Double] = []
                for _ in 0..<3 {
                    for frame in set { times.append(Stopwatch.milliseconds { _ = engines.read(name, frame) }) }
                }
                medians[name] = times.median
                means[name] = times.reduce(0, +) / Double(max(times.count, 1))
                if name == .kiosk { slowest.append("\(label): \(f3(times.sorted()[times.count * 19 / 20])) ms") }
            }
            let zbar = medians[.zbar]!
            rows.append(
                [label]
                    + BenchEngines.Name.allCases.map {
                        "\(f3(medians[$0]!)) (\(f2(medians[$0]! / zbar))x)"
                    })
            meanRows.append(
                [label] + BenchEngines.Name.allCases.map { "\(f3(means[$0]!)) (\(f2(means[$0]! / means[.zbar]!))x)" })
        }
        print(table(["frames"] + BenchEngines.Name.allCases.map(\.rawValue), rows))
        // The mean is what a door pays over time: a few frames through the whole cascade weigh in it.
        print("\n## Mean ms per 640x480 frame (the same frames; ratio to bare zbar's mean)\n")
        print(table(["frames"] + BenchEngines.Name.allCases.map(\.rawValue), meanRows))
        // A frame that goes through the whole cascade costs far more than the median says.
        print("\nThe kiosk decoder's 95th percentile per frame: " + slowest.joined(separator: "; "))
        print()
    }
}
