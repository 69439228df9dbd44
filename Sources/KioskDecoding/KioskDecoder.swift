import GrayImage
import KioskCore

/// The kiosk's QR decoder: a cascade of engines (zbar, zxing-cpp) on preprocessed versions of the frame, in
/// `settings.passes` order, stopping at the first pass that finds a QR code (unless more codes look in view).
///
/// Frames whose longer side exceeds `DecoderSettings.maxSide` (phone photos, 4000×3000) are first
/// box-scaled by an integer factor to at most `maxSide`: both engines read a code in a big photo better at
/// about 1000 px than at full size, and much faster. Each pass is an engine on one of these images:
///
/// - `full`: the (pre-scaled) frame as it is (zxing-cpp also tries its own downscaled copies of it).
/// - `half`, `quarter`: box-averaged by 2 and 4. Codes that fill the frame, screen moire, sensor noise.
///   Skipped when the result would be under 32 px on its shorter side.
/// - `normalized`: local contrast normalisation (dim, overexposed, glare, shadow), first on the
///   half-size frame, where averaging has already removed the moire and noise that normalising would
///   amplify, then on the full frame for codes with modules too small to survive halving (zbar scans that one
///   on every other line only).
/// - `inverted`: light-on-dark codes, at full size.
/// - `sharpened`: unsharp-masked (defocus, motion blur), at full size.
/// - `thresholded`: black and white against the mean of a 9 px window (bright spots, glare), at full size.
/// - `resampled`: each code the gate's finder patterns place (three, or two with the timing patterns between them)
///   read module by module, mended by its own error correction with its least sure codewords as erasures and
///   drawn again whole (`CodeGrid`): a finder pattern lost in glare or a bright spot, a smear across the data.
///   Every grid outside the codes read gets its try; a grid whose code cannot be mended costs no engine a look.
///
/// The passes from `settings.gatedFrom` on run only if `FinderPatternGate` sees QR finder patterns in the
/// frame that are square along their diagonals too, two of them with a code's timing patterns where they would be
/// (`TimingPattern`) or three placed as a code's corners, with the code's quiet zone past them
/// (`PassImages.showsACode`): a frame with nothing code-like in it costs the passes before the gate and that look,
/// not the whole cascade. A frame with three marks placed as a code's corners and no more than that (glare, a bright
/// spot, or print) gets the `resampled` passes only, which keep a grid only where its own timing patterns show and
/// complete a code from two of its finder patterns only where both are square; once they read a code, evidence of
/// another (below) gets it the passes it skipped. If the frame was pre-scaled and no pass found anything, one last
/// bare zbar scan runs on the frame at its own resolution (small codes in big photos), reported as found by
/// `zbar:unscaled`.
///
/// Both engines report only codes whose error correction succeeded, and a code read again (the same payload where
/// one was read, `Sighting.isSameCode`) is kept once, so two engines never give one code twice; one payload at two
/// places is two codes for `everyCode`, one for `decode` (a door gives one verdict per pass). Without a gate the first pass that reads anything is the answer;
/// with one, the cascade goes on after a read only on evidence of another code outside every code read so far
/// (a photo, two guests' phones; `PassImages.showsAnotherCode`): three finder patterns placed as a code's corners
/// (`FinderPatternGate.formACode`), or two square ones with a code's timing patterns between them (a second code
/// washed out by a bright spot often shows only two of its finder patterns), each with the code's quiet zone past
/// them. Finder-like marks alone do not count there: print, patterned clothing and a keyboard are full of them.
/// Each further pass adds only new payloads.
/// Not thread-safe (`passesTried` is the last frame's): one per task.
public final class KioskDecoder: FrameDecoder {
    public let settings: DecoderSettings
    /// Each of its scans has a zbar scanner of its own (zbar's QR reader carries a random state from scan to scan):
    /// what a frame reads depends on the frame alone.
    private let zbar = ZBarScanner()
    /// zbar on every other line, for the full-size contrast-normalised frame: zxing-cpp reads that image too, at
    /// every line, right after; zbar's look at it at every line cost about a seventh of the whole cascade on a
    /// cluttered frame, and every other line read the same codes on every public set and door scene (docs/benchmarks/2026-11-29-decoder.md).
    private let zbarEveryOtherLine = ZBarScanner(lineStep: 2)
    private let zxing = ZXingReader(tryDownscale: true)
    private let zxingNoDownscale = ZXingReader(tryDownscale: false)
    /// The passes the last `decode` ran, in order (what a frame cost: benchmarks, tests, `kioskctl decode`).
    public private(set) var passesTried: [DecoderSettings.Pass] = []
    /// Whether the last `decode` ran the whole cascade past its gate, not only the `resampled` passes (three marks
    /// placed as a code's corners without timing patterns) or none: what a frame without a code costs.
    public var ranTheWholeCascade: Bool {
        passesTried.dropFirst(settings.gatedFrom ?? passesTried.count).contains { $0.image != .resampled }
    }

    public init(settings: DecoderSettings = DecoderSettings()) {
        self.settings = settings
    }

    /// The codes in `frame`, one per payload (a door gives one verdict per pass, however many copies of it are in
    /// view), each with where it was first seen.
    public func decode(_ frame: GrayFrame) -> [DecodedCode] {
        Self.onePerPayload(everyCode(in: frame))
    }

    /// Every code in `frame`, each once with where it is: two codes of one payload at two places are two (as zbarimg
    /// and zxing-cpp report them; `kioskctl decode`, benchmarks that count codes by place). The door uses `decode`.
    public func everyCode(in frame: GrayFrame) -> [DecodedCode] {
        var images = PassImages(source: frame, maxSide: settings.maxSide)
        var found: [(sighting: Sighting, pass: String)] = []
        var gridsOnly = false
        // The cascade stopped after a read that showed no other code.
        var stopped = false
        passesTried.removeAll(keepingCapacity: true)
        // Runs `pass`, keeps each code it reads that is new, and says whether the cascade goes on past it. Without a
        // gate the first pass that reads anything is the answer. With one, the cascade goes on only on evidence of
        // another code outside those read (`PassImages.showsAnotherCode`; BoofCV photos of several codes: 7 more codes
        // of 726, docs/benchmarks/2026-11-25-decoder.md).
        func goesOn(after pass: DecoderSettings.Pass) -> Bool {
            passesTried.append(pass)
            let sightings = run(pass, on: &images, besides: found.map(\.sighting))
            for sighting in sightings where !found.contains(where: { $0.sighting.isSameCode(as: sighting) }) {
                found.append((sighting, pass.description))
            }
            return sightings.isEmpty
                || settings.gatedFrom != nil && images.showsAnotherCode(outside: found.map(\.sighting))
        }
        for (index, pass) in settings.passes.enumerated() {
            if index == settings.gatedFrom, found.isEmpty {
                // Before any read, the evidence of a code (`PassImages.showsACode`): finder patterns that are square,
                // joined by a code's timing patterns or placed as its three corners, with its quiet zone past them.
                // A code the first pass could not read shows some of its finder patterns, often not all three
                // (requiring three placed as a code's lost 12 of 726 codes on the BoofCV photos); busy things in view
                // (print, clothing, a keyboard, a checkerboard) show finder-like marks by the dozen, some of them
                // joined by alternations like timing patterns, but seldom square ones with a quiet zone (cluttered
                // frames without a code, `kiosk-bench decoder --timing-only`: 22 of 120 went through the whole cascade
                // on the timing patterns alone, none with square marks and a quiet zone; docs/benchmarks/2026-11-29-decoder.md).
                let seen = images.finders()
                if seen.count < FinderPatternGate().minimumFinders
                    || images.working.pixels.count > Self.marksAloneUpTo && !images.showsACode()
                {
                    // Three marks placed as a code's corners, the timing patterns between them not seen (glare, a
                    // bright spot, blur): only the grids get a look, each kept on its own timing patterns
                    // (`CodeGrid`), not the whole cascade (print and clothing place three marks so often enough that
                    // the whole cascade on them cost cluttered frames 5 times bare zbar by the median).
                    // Or, in a frame of few marks, three of them (aslant ones too, `Finder.isAslant`) however far
                    // from square whose finder patterns' widths along the sides give one dimension
                    // (`CodeGrid.measuresAsOne`): a code seen steeply aslant, which print and clothing rarely give.
                    guard FinderPatternGate.formACode(seen) || images.hasSteepCode() else { return [] }
                    gridsOnly = true
                    images.cornerMarksOnly = true
                }
            }
            if gridsOnly, pass.image != .resampled { continue }
            guard goesOn(after: pass) else {
                stopped = true
                break
            }
        }
        // A frame of only corner marks whose grids read a code is a frame of codes, not print: on evidence of another
        // code outside those read, it gets the passes it skipped, in their order (BoofCV `blurred/image026`: a second
        // code blur keeps from the grids that the thresholded pass reads). Print and clothing give the grids nothing
        // to read, so frames without a code pay nothing more. The evidence was asked after the grids' last read (not
        // stopped: there was some), and nothing was read since.
        if gridsOnly, !stopped, let gate = settings.gatedFrom, !found.isEmpty {
            for pass in settings.passes[gate...] where pass.image != .resampled {
                guard goesOn(after: pass) else { break }
            }
        }
        if found.isEmpty, images.isPreScaled {
            return Self.unique(zbar.sightings(frame), foundBy: "zbar:unscaled")
        }
        // Sightings are in the working frame's pixels; codes are reported in the frame's.
        let factor = Double(frame.width) / Double(max(images.working.width, 1))
        return found.map {
            DecodedCode(payload: $0.sighting.payload, foundBy: $0.pass, corners: $0.sighting.scaled(by: factor).corners)
        }
    }

    /// Frames of at most this many pixels (320×240) go past the gate on finder-like marks alone: the whole cascade
    /// costs a quarter of a 640×480 frame's there, and small pictures of codes (a code of 3 px modules filling a
    /// 240 px image, an artistic code without its quiet zone) often show timing patterns too few pixels wide or
    /// cut by the image's edge (8 of the 320 sample images were lost without this).
    static let marksAloneUpTo = 320 * 240

    /// Finder-pattern triples the `resampled` passes mend a code from at most.
    static let gridsTried = 6
    /// Triples completed from two finder patterns the `resampled` passes look at at most (`CodeGrid.completed`).
    static let triplesCompleted = 24
    /// Triples the `resampled` passes try however far from square (`CodeGrid.triples`, `steep`) at most, and the
    /// finder patterns in view (aslant ones too) up to which they look for them.
    static let steepTriplesTried = 48
    static let findersForSteepTriples = 24
    /// Triples of a code tilted far away (`CodeGrid.keystoneTriples`) the `resampled` passes try at most, and the
    /// marks in view (aslant ones too) up to which they look for them (a version 10 pass shows about 30 of its own).
    static let keystoneTriplesTried = 4
    static let findersForKeystoneTriples = 40

    /// Finder patterns the gate looks for at most (a frame of many codes needs no more to go on).
    public static let findersLooked = 64

    /// The capture loop's cheap look at an idle scene. With a gate in the cascade, the passes before it and the
    /// gate are that look, and a still frame with something code-like in it gets the rest (a pass laid still
    /// under the camera that only a later pass reads is read); without one, the first pass only.
    public func decodeQuickly(_ frame: GrayFrame) -> [DecodedCode] {
        if settings.gatedFrom != nil { return decode(frame) }
        return Self.onePerPayload(decode(frame, pass: settings.passes.first ?? .zbar(.full)))
    }

    /// A code's payload as text, for people (`kioskctl decode`), as zxing-cpp renders it: a payload of ASCII
    /// bytes as it is; otherwise the text zxing-cpp gives for the code of the same bytes in `frame` (its ECI or
    /// guessed character set, such as Shift JIS, converted), else the bytes as UTF-8 when they are, else as
    /// ISO 8859-1 (the QR standard's default). The door itself works on the bytes.
    public func text(of payload: [UInt8], in frame: GrayFrame) -> String {
        if payload.allSatisfy({ $0 < 0x80 }) { return String(decoding: payload, as: UTF8.self) }
        let images = PassImages(source: frame, maxSide: settings.maxSide)
        for image in images.isPreScaled ? [images.working, frame] : [frame] {
            if let text = ZXingReader(withText: true).sightings(image).first(where: { $0.payload == payload })?.text {
                return text
            }
        }
        if let text = String(validating: payload, as: UTF8.self) { return text }
        return String(payload.map { Character(Unicode.Scalar($0)) })
    }

    /// One pass alone on `frame` (after the `maxSide` pre-scale): for benchmarks and tests.
    public func decode(_ frame: GrayFrame, pass: DecoderSettings.Pass) -> [DecodedCode] {
        var images = PassImages(source: frame, maxSide: settings.maxSide)
        let factor = Double(frame.width) / Double(max(images.working.width, 1))
        return Self.unique(run(pass, on: &images).map { $0.scaled(by: factor) }, foundBy: pass.description)
    }

    /// The images the engine is given for `pass` (after the `maxSide` pre-scale), in the order it is given them.
    public func images(for frame: GrayFrame, pass: DecoderSettings.Pass) -> [GrayFrame] {
        var images = PassImages(source: frame, maxSide: settings.maxSide)
        var inputs: [GrayFrame] = []
        while let image = images.input(for: pass.image, attempt: inputs.count) { inputs.append(image) }
        return inputs
    }

    /// The codes `pass` reads, in the working frame's pixels: its images in turn until one reads (the mended
    /// codes: each grid's until one reads, for every grid outside the codes `besides` and those it reads).
    private func run(_ pass: DecoderSettings.Pass, on images: inout PassImages, besides: [Sighting] = []) -> [Sighting]
    {
        func read(_ image: GrayFrame, attempt: Int = 0) -> [Sighting] {
            switch pass.engine {
            case .zbar where pass.image == .normalized && attempt == PassImages.fullSizeNormalized:
                zbarEveryOtherLine.sightings(image)
            case .zbar: zbar.sightings(image)
            case .zxing: pass.image == .full ? zxing.sightings(image) : zxingNoDownscale.sightings(image)
            }
        }
        if pass.image == .resampled {
            var mendedRead: [Sighting] = []
            for grids in images.resampled(outside: besides) {
                guard let first = grids.first,
                    !(besides + mendedRead).contains(where: { $0.covers(first.grid.finderCentres[0]) })
                else { continue }
                for (grid, image) in grids {
                    let sightings = read(image)
                    if !sightings.isEmpty {
                        mendedRead += sightings.map(grid.onFrame)
                        break
                    }
                }
            }
            return mendedRead
        }
        var attempt = 0
        while let image = images.input(for: pass.image, attempt: attempt) {
            let sightings = read(image, attempt: attempt)
            if !sightings.isEmpty {
                let factor = Double(images.working.width) / Double(max(image.width, 1))
                return sightings.map { $0.scaled(by: factor) }
            }
            attempt += 1
        }
        return []
    }

    private static func onePerPayload(_ codes: [DecodedCode]) -> [DecodedCode] {
        var payloads = Set<[UInt8]>()
        return codes.filter { payloads.insert($0.payload).inserted }
    }

    /// Each code once (one engine may report a code twice, on two of its own scales), with where it is.
    private static func unique(_ sightings: [Sighting], foundBy pass: String) -> [DecodedCode] {
        var kept: [Sighting] = []
        for sighting in sightings where !kept.contains(where: { $0.isSameCode(as: sighting) }) { kept.append(sighting) }
        return kept.map { DecodedCode(payload: $0.payload, foundBy: pass, corners: $0.corners) }
    }
}

/// The frame at the scales the passes need, each computed once per decode.
struct PassImages {
    /// Halving below this (shorter side, pixels) leaves too little for any code.
    static let smallestSide = 32
    /// The `normalized` pass's scan of the full-size frame, after the half-size one (a frame too small to halve gets
    /// only one scan, at its own size).
    static let fullSizeNormalized = 1

    let working: GrayFrame
    let isPreScaled: Bool
    private var halfImage: GrayFrame??
    private var foundFinders: [Finder]?
    /// The square ones among `finders()` (`FinderPatternGate.isSquare`), once looked at.
    var squareMarks: [Finder]?
    /// The frame showed no more evidence of a code than three marks placed as a code's corners (or a steep code's
    /// three): its grids complete codes from two square marks only (`resampled`).
    var cornerMarksOnly = false
    private var mendedCodes: [[(grid: CodeGrid, image: GrayFrame)]]?
    private var madeImages: [MadeImage: GrayFrame?] = [:]

    init(source: GrayFrame, maxSide: Int) {
        let factor = ImagePreprocessing.factorToFit(source, maxSide: maxSide)
        working = ImagePreprocessing.downscaled(source, by: factor)
        isPreScaled = factor > 1
    }

    /// The half-size frame, or nil when it would be too small.
    mutating func half() -> GrayFrame? {
        if let halfImage { return halfImage }
        let image = Self.downscaled(working, by: 2)
        halfImage = .some(image)
        return image
    }

    /// The finder patterns the gate sees in the working frame (at most `KioskDecoder.findersLooked`), the aslant
    /// ones (`Finder.isAslant`) too.
    mutating func allFinders() -> [Finder] {
        if let foundFinders { return foundFinders }
        let gate = FinderPatternGate()
        var finders = gate.finders(working, stopAt: KioskDecoder.findersLooked, aslant: true)
        // Marks up to the limit (sensor noise in a dim scene, a page of print) may hide a code's further down the
        // frame: a second look at half the gate's size, where noise and small print average out, adds the marks it
        // finds elsewhere (dim door scenes: 3 of 8 codes at severity 1.0 were behind 64 noise marks).
        let coarse = FinderPatternGate(workingSide: gate.workingSide / 2)
        if finders.filter({ !$0.isAslant }).count >= KioskDecoder.findersLooked
            || finders.count >= 2 * KioskDecoder.findersLooked, coarse.factor(for: working) > gate.factor(for: working)
        {
            for mark in coarse.finders(working, stopAt: KioskDecoder.findersLooked, aslant: true)
            where !finders.contains(where: { old in
                let d = old.centre - mark.centre
                return (d * d).sum() <= 9 * mark.module * mark.module
            }) {
                finders.append(mark)
            }
        }
        foundFinders = finders
        return finders
    }

    /// Whether a frame of at most `KioskDecoder.findersForSteepTriples` marks holds three placed as a code's
    /// corners however far from square (`CodeGrid.triples`, `steep`) whose widths along the sides give one
    /// dimension (`CodeGrid.measuresAsOne`).
    mutating func hasSteepCode() -> Bool {
        let all = allFinders()
        guard all.count <= KioskDecoder.findersForSteepTriples else { return false }
        return CodeGrid.triples(all, limit: KioskDecoder.steepTriplesTried, steep: true).contains {
            CodeGrid.measuresAsOne($0.0, $0.1, $0.2, in: working)
        }
    }

    /// The finder patterns the gate counts as evidence of a code: not aslant.
    mutating func finders() -> [Finder] {
        allFinders().filter { !$0.isAslant }
    }

    /// For each triple of finder patterns placed as a code's corners, or completed from two (at most
    /// `KioskDecoder.gridsTried`), outside the codes `read`, its code as mended from each of its grids
    /// (`CodeGrid.mendedCode`; none where the code cannot be mended), in the order to try them. Made once per
    /// decode, by the first `resampled` pass.
    mutating func resampled(outside read: [Sighting] = []) -> [[(grid: CodeGrid, image: GrayFrame)]] {
        if let mendedCodes { return mendedCodes }
        let frame = working
        let seen = allFinders().filter { finder in !read.contains { $0.covers(finder.centre) } }
        // The gate's own marks placed as a code's corners first; then, in a frame of few marks, any three however
        // far from square, the marks seen steeply aslant too (`Finder.isAslant`, which blur and print give by the
        // dozen: a cluttered frame's triples would cost more than all the passes).
        let upright = seen.filter { !$0.isAslant }
        // How busy the frame is, by its marks: those seen through a faint ring (glare) not counted, as one more mark
        // in a tilted code's blur took a door scene over the keystone triples' limit (docs/benchmarks/2026-11-29-decoder.md).
        let marks = seen.count { !$0.isFaint }
        let steep =
            marks <= KioskDecoder.findersForSteepTriples
            ? CodeGrid.triples(seen, limit: KioskDecoder.steepTriplesTried, steep: true, includingSquare: false) : []
        // Perspective (`CodeGrid.perspective`) only for the steep ones: the gate's own triples are placed about
        // square, and measuring each one's finder patterns cost a door in motion frames it had decided.
        // Completions from two marks (a code's third finder pattern lost in glare or a bright spot): on a frame of
        // only corner marks, from square ones (`FinderPatternGate.isSquare`) alone. Print and plaids there give dozens
        // of marks, pairs of them joined by alternations, and a code's own finder patterns are square, blurred too
        // (cluttered frames without a code: their grids 2.7 -> 1.3 ms each, the same reads on every public image and
        // door scene; docs/benchmarks/2026-11-29-decoder.md).
        let square = cornerMarksOnly ? squareFinders() : []
        let completing = cornerMarksOnly ? upright.filter(square.contains) : upright
        let candidates =
            (CodeGrid.triples(upright, limit: KioskDecoder.gridsTried)
            + CodeGrid.completed(completing, in: frame, limit: KioskDecoder.triplesCompleted)).map { ($0, false) }
            + steep.map { ($0, true) }
        var grids: [(best: CodeGrid, timing: Double, fits: [CodeGrid])] = []
        func consider(_ triple: (Finder, Finder, Finder), inPerspective: Bool) {
            guard
                let grid = CodeGrid.grid(
                    topLeft: triple.0, topRight: triple.1, bottomLeft: triple.2, inPerspective: inPerspective,
                    in: frame)
            else { return }
            // The affine grid too, first, where the one chosen is in perspective: a curved code's finder patterns
            // differ in width as a slanted one's do, and its data lies nearer the affine grid.
            let affine =
                inPerspective
                ? CodeGrid.grid(
                    topLeft: triple.0, topRight: triple.1, bottomLeft: triple.2, inPerspective: false, in: frame) : nil
            let fits = affine.map { $0.isSame(as: grid) ? [grid] : [$0, grid] } ?? [grid]
            let timing = grid.timingScore(in: frame)
            // One code found twice (the same three finder patterns, another of them as the corner): the grid whose
            // timing patterns show better.
            if let same = grids.firstIndex(where: { grid.overlaps($0.best) }) {
                if timing > grids[same].timing { grids[same] = (grid, timing, fits) }
                return
            }
            grids.append((grid, timing, fits))
        }
        for (triple, isSteep) in candidates where grids.count < KioskDecoder.gridsTried {
            consider(triple, inPerspective: isSteep)
        }
        // Last, in a frame of any number of marks, a code tilted far away (its near finder pattern's modules over
        // twice its far one's, which no triple above pairs): three marks whose sides, measured along them, count as
        // many modules (`CodeGrid.keystoneTriples`).
        if grids.count < KioskDecoder.gridsTried, marks <= KioskDecoder.findersForKeystoneTriples {
            for triple in CodeGrid.keystoneTriples(seen, in: frame, limit: KioskDecoder.keystoneTriplesTried)
            where grids.count < KioskDecoder.gridsTried {
                consider(triple, inPerspective: true)
            }
        }
        let codes = grids.map { code in code.fits.compactMap { grid in grid.mendedCode(in: frame) } }
        mendedCodes = codes
        return codes
    }

    /// The image for a pass's `attempt`-th scan (0, 1, ...), made only when asked for and once per decode (zbar and
    /// zxing-cpp each read the normalised and thresholded images); nil when the pass has no more.
    mutating func input(for image: DecoderSettings.Image, attempt: Int) -> GrayFrame? {
        switch image {
        case .full, .half, .resampled:
            return make(image, attempt: attempt)
        case .quarter, .normalized, .inverted, .sharpened, .thresholded:
            let key = MadeImage(image: image, attempt: attempt)
            if let made = madeImages[key] { return made }
            let made = make(image, attempt: attempt)
            madeImages[key] = .some(made)
            return made
        }
    }

    /// Which image of a pass (`input(for:attempt:)`).
    private struct MadeImage: Hashable {
        var image: DecoderSettings.Image
        var attempt: Int
    }

    private mutating func make(_ image: DecoderSettings.Image, attempt: Int) -> GrayFrame? {
        switch (image, attempt) {
        case (.full, 0):
            return working
        case (.half, 0):
            return half()
        case (.quarter, 0):
            // A box of boxes is the 4×4 box (up to the dropped odd row and column).
            return half().flatMap { Self.downscaled($0, by: 2) }
        case (.normalized, 0):
            return ImagePreprocessing.contrastNormalized(half() ?? working)
        case (.normalized, Self.fullSizeNormalized):
            return half() == nil ? nil : ImagePreprocessing.contrastNormalized(working)
        case (.inverted, 0):
            return ImagePreprocessing.inverted(working)
        case (.sharpened, 0):
            return ImagePreprocessing.sharpened(working)
        case (.thresholded, 0):
            return ImagePreprocessing.locallyThresholded(working)
        case (.resampled, _):
            return resampled().flatMap { $0.map(\.image) }.dropFirst(attempt).first
        default:
            return nil
        }
    }

    private static func downscaled(_ image: GrayFrame, by factor: Int) -> GrayFrame? {
        guard min(image.width, image.height) / factor >= smallestSide else { return nil }
        return ImagePreprocessing.downscaled(image, by: factor)
    }
}
