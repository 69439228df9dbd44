import ArgumentParser
import Foundation
import GrayImage
import ImageFiles
import KioskCore
import KioskDecoding
import KioskScenes
import QREncoding

/// The decoder (issue 10): the kiosk's cascade against zbar alone and zxing-cpp alone, on public photo sets
/// (`scripts/decoder-benchmark-data.sh` builds their copy) and on door scenes, with times per frame.
struct DecoderBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decoder",
        abstract: "Read rates and times of the kiosk decoder, zbar alone and zxing-cpp alone.",
        discussion: """
            --data takes the folder scripts/decoder-benchmark-data.sh wrote (manifest.tsv and the images); \
            without it only the door scenes run. --passes shows each pass on its own (to choose the cascade).
            """)

    @Option(help: "The public sets' copy (manifest.tsv).") var data: String?
    @Option(help: "Door scenes per condition and severity.") var seeds = 8
    @Option(help: "Sharp busy things in each door scene (patterned clothing, print, a keyboard, other barcodes).")
    var clutter = 0
    @Option(help: "Frames per timing sample (640x480).") var timingFrames = 60
    @Option(help: "The cascade to measure (kiosk.conf's decoder_passes syntax); the default cascade if absent.")
    var cascade: String?
    @Flag(help: "Also each pass alone: reads and ms per image.") var passes = false
    @Flag(help: "Only the times per frame (ordinary and cluttered door frames).") var timingOnly = false
    @Option(help: "The golden images folder.") var testImages = "test-images"
    @Option(help: "Also write a line per public-set image here (set, category, image, codes, read by each decoder).")
    var perImage: String?
    @Option(help: "Also write the timing frames that ran the whole cascade here, as PGM (to see what opened it).")
    var wholeCascadeFrames: String?

    func run() throws {
        var settings = DecoderSettings()
        if let cascade {
            switch DecoderSettings.parseCascade(cascade) {
            case .success(let parsed):
                settings.passes = parsed.passes
                settings.gatedFrom = parsed.gatedFrom
            case .failure(let error):
                throw ValidationError("--cascade: \(error)")
            }
        }
        print("Cascade: \(settings.cascadeText)\n")
        let engines = BenchEngines(settings: settings)
        if !timingOnly {
            if let data { try PublicSetBench(folder: data, engines: engines, passes: passes, perImage: perImage).run() }
            try DoorSceneBench(
                engines: engines, seeds: seeds, testImages: testImages, passes: passes, clutter: clutter
            ).run()
        }
        DecoderTimingBench(engines: engines, frames: timingFrames, wholeCascadeFolder: wholeCascadeFrames).run()
    }
}

/// The three decoders side by side, and each pass alone.
struct BenchEngines {
    let settings: DecoderSettings
    let kiosk: KioskDecoder
    let zbar = ZBarScanner()
    let zxing = ZXingReader()

    init(settings: DecoderSettings) {
        self.settings = settings
        kiosk = KioskDecoder(settings: settings)
    }

    enum Name: String, CaseIterable {
        case kiosk = "kiosk decoder"
        case zbar = "zbar alone"
        case zxing = "zxing-cpp alone"
    }

    /// What `name` reads in `frame` (the frame as it is: the caller scales photos first).
    func read(_ name: Name, _ frame: GrayFrame) -> [[UInt8]] {
        switch name {
        case .kiosk: kiosk.decode(frame).map(\.payload)
        case .zbar: zbar.scan(frame)
        case .zxing: zxing.scan(frame)
        }
    }

    /// Every code `name` reads in `frame`, with where it is: one payload at two places is two codes.
    func codes(_ name: Name, _ frame: GrayFrame) -> [DecodedCode] {
        switch name {
        case .kiosk: kiosk.everyCode(in: frame)
        case .zbar:
            zbar.sightings(frame).map {
                DecodedCode(payload: $0.payload, foundBy: "zbar", corners: $0.corners)
            }
        case .zxing:
            zxing.sightings(frame).map { DecodedCode(payload: $0.payload, foundBy: "zxing", corners: $0.corners) }
        }
    }

    /// The passes to show alone: every engine on every image.
    static var allPasses: [DecoderSettings.Pass] {
        DecoderSettings.Engine.allCases.flatMap { engine in DecoderSettings.Image.allCases.map { .init(engine, $0) } }
    }
}

/// Reads, time and wrong reads of one decoder over a group of images.
struct ReadTally {
    var images = 0
    var codes = 0
    var read = 0
    var wrong = 0
    var onNoCode = 0
    /// Codes read counted as before session 29, by distinct payload (two codes of one payload count once).
    var readByPayload = 0
    var milliseconds: [Double] = []

    /// Counts one image whose codes' places are known (`places[i]`: the corners of the code of `expected[i]`, in the
    /// frame's pixels): each code read counts for the labelled code its centre lies in, once, as BoofCV's own
    /// benchmark counts (two codes of one payload are two); a read in no labelled code, or of another payload
    /// than the one labelled there, is wrong.
    mutating func add(expected: [[UInt8]?], places: [[SIMD2<Double>]], found: [DecodedCode], ms: Double) {
        guard places.count == expected.count, !places.isEmpty else {
            add(expected: expected, found: found.map(\.payload), ms: ms)
            return
        }
        var byPayload = ReadTally()
        byPayload.add(expected: expected, found: found.map(\.payload), ms: ms)
        readByPayload += byPayload.read
        images += 1
        codes += expected.count
        milliseconds.append(ms)
        var readAt: [Int: [UInt8]] = [:]
        for code in found {
            guard let centre = code.centre, let index = places.indices.first(where: { Self.inside(centre, places[$0]) })
            else {
                wrong += 1
                continue
            }
            if let before = readAt[index] {
                if before != code.payload { wrong += 1 }
                continue
            }
            if let payload = expected[index], !Self.matches(code.payload, payload) {
                wrong += 1
                continue
            }
            readAt[index] = code.payload
            read += 1
        }
    }

    /// Whether `point` lies inside the polygon `corners` (crossings of a ray to the right).
    static func inside(_ point: SIMD2<Double>, _ corners: [SIMD2<Double>]) -> Bool {
        var crossings = 0
        for (a, b) in zip(corners, corners.dropFirst() + corners.prefix(1)) where (a.y > point.y) != (b.y > point.y) {
            if point.x < a.x + (point.y - a.y) / (b.y - a.y) * (b.x - a.x) { crossings += 1 }
        }
        return crossings % 2 == 1
    }

    /// Counts one image: `expected` nil entries are codes whose payload is not known (any read counts).
    mutating func add(expected: [[UInt8]?], found: [[UInt8]], ms: Double) {
        let before = read
        defer { readByPayload += read - before }
        images += 1
        codes += expected.count
        milliseconds.append(ms)
        if expected.isEmpty {
            onNoCode += found.count
            return
        }
        var unknown = expected.filter { $0 == nil }.count
        var known = expected.compactMap { $0 }
        for payload in Set(found) {
            if let index = known.firstIndex(where: { Self.matches(payload, $0) }) {
                known.remove(at: index)
                read += 1
            } else if unknown > 0 {
                unknown -= 1
                read += 1
            } else {
                wrong += 1
            }
        }
    }

    /// The code's bytes are the expected ones, or, where the set gives the payload as UTF-8 text, the same text
    /// in the code's own character set (QR codes hold ISO 8859-1 or Shift JIS bytes; the sets write them as UTF-8).
    static func matches(_ payload: [UInt8], _ expected: [UInt8]) -> Bool {
        if payload == expected { return true }
        guard let text = String(bytes: expected, encoding: .utf8) else { return false }
        let trimmed = text.trimmingCharacters(in: .newlines)
        return [String.Encoding.isoLatin1, .shiftJIS, .utf8].contains { encoding in
            guard let decoded = String(bytes: payload, encoding: encoding) else { return false }
            return decoded == text || decoded == trimmed
        }
    }

    static func + (a: ReadTally, b: ReadTally) -> ReadTally {
        ReadTally(
            images: a.images + b.images, codes: a.codes + b.codes, read: a.read + b.read, wrong: a.wrong + b.wrong,
            onNoCode: a.onNoCode + b.onNoCode, readByPayload: a.readByPayload + b.readByPayload,
            milliseconds: a.milliseconds + b.milliseconds)
    }

    var rate: String {
        codes == 0 ? "-" : String(format: "%d/%d (%.1f %%)", read, codes, Double(read) / Double(codes) * 100)
    }
    var meanMs: String { milliseconds.isEmpty ? "-" : f2(milliseconds.reduce(0, +) / Double(milliseconds.count)) }
}
