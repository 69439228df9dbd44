import Foundation
import ImageFiles
import KioskCore
import KioskDecoding

/// The public photo sets: the BoofCV QR benchmark, zxing-cpp's and ZXing's QR samples, as
/// `scripts/decoder-benchmark-data.sh` copies them (manifest.tsv: set, category, image, expected payloads).
struct PublicSetBench {
    /// BoofCV categories a door never sees (dozens of codes, version 40, codes outside the standard).
    static let notAtTheDoor: Set<String> = ["high_version", "lots", "noncompliant", "pathological"]
    /// Photos are box-scaled to at most this long side first (as the issue measures).
    static let maxSide = 1280

    struct Entry {
        var set: String
        var category: String
        var path: String
        /// nil: a code whose payload the set does not give.
        var expected: [[UInt8]?]
        /// Each code's corners in the photo's pixels, where the set labels them (BoofCV); else empty.
        var places: [[SIMD2<Double>]] = []
    }

    let folder: String
    let engines: BenchEngines
    let passes: Bool
    /// A TSV file to write a line per image to: set, category, image, codes, codes read by each decoder, the
    /// kiosk decoder's payloads (hex, comma-separated), how many of its passes ran and where each code it read is.
    let perImage: String?

    func run() throws {
        let entries = try Self.manifest(folder + "/manifest.tsv")
        var unreadable = 0
        var tallies: [String: [String: [BenchEngines.Name: ReadTally]]] = [:]
        var passTallies: [String: [DecoderSettings.Pass: ReadTally]] = [:]
        var ceilings: [String: (union: Int, best: Int, codes: Int)] = [:]
        let passDecoder = KioskDecoder(settings: DecoderSettings(passes: [.zbar(.full)], maxSide: Self.maxSide))
        var lines: [String] = []
        for entry in entries {
            guard let photo = try? ImageFile.read(path: folder + "/" + entry.path) else {
                unreadable += 1
                continue
            }
            let frame = ImagePreprocessing.downscaled(
                photo, by: ImagePreprocessing.factorToFit(photo, maxSide: Self.maxSide))
            var line = [entry.set, entry.category, entry.path, String(entry.expected.count)]
            var kioskCodes: [DecodedCode] = []
            // The labelled corners in the frame's pixels (the photo box-scaled by a whole factor).
            let scale = Double(frame.width) / Double(max(photo.width, 1))
            let places = entry.places.map { $0.map { $0 * scale } }
            for name in BenchEngines.Name.allCases {
                var found: [DecodedCode] = []
                let ms = Stopwatch.milliseconds { found = engines.codes(name, frame) }
                tallies[entry.set, default: [:]][entry.category, default: [:]][name, default: ReadTally()].add(
                    expected: entry.expected, places: places, found: found, ms: ms)
                var alone = ReadTally()
                alone.add(expected: entry.expected, places: places, found: found, ms: ms)
                line.append(String(alone.read))
                if name == .kiosk { kioskCodes = found }
            }
            line.append(
                kioskCodes.map { $0.payload.map { String(format: "%02x", $0) }.joined() }.joined(separator: ","))
            line.append(String(engines.kiosk.passesTried.count))
            // Where each code the kiosk read is (its centre, in the frame's pixels), in the order of the payloads.
            line.append(
                kioskCodes.map { code in
                    code.centre.map { String(format: "%.0f %.0f", $0.x, $0.y) } ?? "?"
                }.joined(separator: ","))
            lines.append(line.joined(separator: "\t"))
            guard passes else { continue }
            let group =
                entry.set == "boofcv" ? (Self.notAtTheDoor.contains(entry.category) ? nil : "boofcv door") : entry.set
            guard let group else { continue }
            var union = Set<[UInt8]>()
            var best = ReadTally()
            for pass in BenchEngines.allPasses {
                var found: [[UInt8]] = []
                let ms = Stopwatch.milliseconds { found = passDecoder.decode(frame, pass: pass).map(\.payload) }
                passTallies[group, default: [:]][pass, default: ReadTally()].add(
                    expected: entry.expected, found: found, ms: ms)
                union.formUnion(found)
                var alone = ReadTally()
                alone.add(expected: entry.expected, found: found, ms: 0)
                if alone.read > best.read { best = alone }
            }
            var all = ReadTally()
            all.add(expected: entry.expected, found: Array(union), ms: 0)
            ceilings[group, default: (0, 0, 0)].union += all.read
            ceilings[group, default: (0, 0, 0)].best += best.read
            ceilings[group, default: (0, 0, 0)].codes += entry.expected.count
        }
        if let perImage {
            try (lines.joined(separator: "\n") + "\n").write(toFile: perImage, atomically: true, encoding: .utf8)
        }
        for set in tallies.keys.sorted() {
            print("## \(set): codes read, ms per image (at most \(Self.maxSide) px on the long side)\n")
            var rows: [[String]] = []
            var door: [BenchEngines.Name: ReadTally] = [:]
            var all: [BenchEngines.Name: ReadTally] = [:]
            for (category, byName) in tallies[set]!.sorted(by: { $0.key < $1.key }) {
                rows.append(Self.row(category, byName))
                for (name, tally) in byName {
                    all[name] = (all[name] ?? ReadTally()) + tally
                    if set == "boofcv" && !Self.notAtTheDoor.contains(category) {
                        door[name] = (door[name] ?? ReadTally()) + tally
                    }
                }
            }
            if set == "boofcv" { rows.append(Self.row("**door categories**", door)) }
            rows.append(Self.row("**all**", all))
            print(
                table(
                    [
                        "category", "images", "codes", "kiosk decoder", "zbar alone", "zxing-cpp alone", "ms kiosk",
                        "ms zbar", "ms zxing", "wrong k/z/x", "reads on no-code k/z/x",
                    ], rows))
            if set == "boofcv", let kiosk = door[.kiosk], let zbar = door[.zbar], let zxing = door[.zxing] {
                print(
                    "\nBoofCV codes are counted by place (each labelled code read once, as BoofCV counts; two codes of "
                        + "one payload are two). Counted by distinct payload, as before: door categories kiosk "
                        + "\(kiosk.readByPayload), zbar \(zbar.readByPayload), zxing-cpp \(zxing.readByPayload) of "
                        + "\(kiosk.codes).")
            }
            print()
        }
        if unreadable > 0 { print("(\(unreadable) images could not be read and were left out)\n") }
        for group in passTallies.keys.sorted() {
            print("### Each pass alone: \(group)\n")
            let rows = passTallies[group]!.sorted { $0.value.read > $1.value.read }.map { pass, tally in
                [pass.description, tally.rate, tally.meanMs, "\(tally.wrong)", "\(tally.onNoCode)"]
            }
            print(table(["pass", "codes read", "ms per image", "wrong", "reads on no-code"], rows))
            if let c = ceilings[group] {
                print(
                    "\nCeilings: the best single pass per image reads \(c.best)/\(c.codes), all passes together "
                        + "\(c.union)/\(c.codes)")
            }
            print()
        }
    }

    static func row(_ label: String, _ byName: [BenchEngines.Name: ReadTally]) -> [String] {
        let k = byName[.kiosk] ?? ReadTally()
        let z = byName[.zbar] ?? ReadTally()
        let x = byName[.zxing] ?? ReadTally()
        return [
            label, "\(k.images)", "\(k.codes)", k.rate, z.rate, x.rate, k.meanMs, z.meanMs, x.meanMs,
            "\(k.wrong)/\(z.wrong)/\(x.wrong)", "\(k.onNoCode)/\(z.onNoCode)/\(x.onNoCode)",
        ]
    }

    static func manifest(_ path: String) throws -> [Entry] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line -> Entry? in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 3, !line.hasPrefix("#") else { return nil }
            let expected = fields.count > 3 ? fields[3] : ""
            let codes: [[UInt8]?] =
                expected.isEmpty
                ? [] : expected.split(separator: ",", omittingEmptySubsequences: false).map { hex($0) }
            // Fifth field: each code's corners (8 numbers: x y of 4 corners), codes separated by ";".
            let places = fields.count > 4 ? fields[4].split(separator: ";").map(corners) : []
            return Entry(
                set: fields[0], category: fields[1], path: fields[2], expected: codes,
                places: places.count == codes.count && places.allSatisfy({ $0.count == 4 }) ? places : [])
        }
    }

    /// "x y x y ..." to points.
    static func corners(_ text: Substring) -> [SIMD2<Double>] {
        let numbers = text.split(separator: " ").compactMap { Double($0) }
        return stride(from: 0, to: numbers.count - 1, by: 2).map { SIMD2(numbers[$0], numbers[$0 + 1]) }
    }

    /// Lowercase hex to bytes; `?` (or anything not hex) is a code of unknown payload.
    static func hex(_ text: Substring) -> [UInt8]? {
        guard text != "?", text.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
