import GrayImage
import KioskCore

/// A cheap look for QR finder patterns (the three nested squares: dark, light, dark, light, dark in widths
/// 1:1:3:1:1 across any line through their centre), in either polarity: does the frame hold anything code-like?
///
/// The decoder's expensive passes run only on frames where this finds at least `minimumFinders` patterns: an
/// empty lobby or a guest walking past costs a few cheap passes and this look, not the whole cascade. Each row of
/// the (half-size) image is thresholded against the mean of a window around each pixel (uneven light, dim and
/// low-contrast codes alike), its runs are searched for 1:1:3:1:1, and each hit is confirmed across the column
/// through its centre. Hits within a few modules of each other are one pattern.
public struct FinderPatternGate: Sendable {
    /// Distinct confirmed patterns for a frame to count as code-like.
    public var minimumFinders: Int
    /// Pixels of the shorter side the look runs at (the frame is box-averaged down to about it).
    public var workingSide: Int

    public init(minimumFinders: Int = 2, workingSide: Int = 480) {
        self.minimumFinders = minimumFinders
        self.workingSide = workingSide
    }

    /// Whether `frame` shows at least `minimumFinders` finder patterns.
    public func isCodeLike(_ frame: GrayFrame) -> Bool {
        finderCount(frame, stopAt: minimumFinders) >= minimumFinders
    }

    /// The distinct finder patterns found (counting stops at `stopAt`).
    public func finderCount(_ frame: GrayFrame, stopAt: Int = .max) -> Int {
        finderCentres(frame, stopAt: stopAt).count
    }

    /// The centres of the distinct finder patterns found, in `frame`'s pixels (at most `stopAt`).
    public func finderCentres(_ frame: GrayFrame, stopAt: Int = .max) -> [SIMD2<Double>] {
        finders(frame, stopAt: stopAt).map(\.centre)
    }

    /// The distinct finder patterns found, in `frame`'s pixels (at most `stopAt`); with `aslant`, also those whose
    /// column is up to three times longer or shorter than their row (`Finder.isAslant`).
    public func finders(_ frame: GrayFrame, stopAt: Int = .max, aslant: Bool = false) -> [Finder] {
        guard !frame.isEmpty else { return [] }
        let factor = factor(for: frame)
        let image = ImagePreprocessing.downscaled(frame, by: factor)
        let width = image.width
        let height = image.height
        guard width >= 21, height >= 21 else { return [] }
        let radius = max(6, min(width, height) / 20)
        let margin = 3
        var found: [(x: Int, y: Int, unit: Int, total: Int, dark: Bool, aslant: Bool, faint: Bool)] = []
        var upright = 0
        // Scratch space for one look, reused row by row (rows are 30 frames a second): unchecked buffers, the
        // inner loop runs on every other pixel row of every frame.
        let histogram = UnsafeMutableBufferPointer<Int>.allocate(capacity: Self.saturated)
        let edges = UnsafeMutableBufferPointer<Int>.allocate(capacity: width + 2)
        let paperRow = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: width)
        defer {
            histogram.deallocate()
            edges.deallocate()
            paperRow.deallocate()
        }
        image.pixels.withUnsafeBufferPointer { pixels in
            // Every other row: a counted pattern is at least 10 px across, so its 3-module centre spans 4 rows or more.
            for y in stride(from: 0, to: height, by: 2) {
                let row = y * width
                // The row the windows' means are taken from: the frame's own, or with its saturated pixels as paper.
                let own = UnsafeBufferPointer(rebasing: pixels[row..<(row + width)])
                let line =
                    Self.withSaturatedAsPaper(pixels, row: row, width: width, into: paperRow, histogram: histogram)
                    ?? own
                let (runCount, firstDark) = Self.runs(own, means: line, radius: radius, margin: margin, edges: edges)
                guard runCount >= 5 else { continue }
                for i in 0...(runCount - 5) {
                    let (a, b, c, d, e) = (
                        edges[i + 1] - edges[i], edges[i + 2] - edges[i + 1], edges[i + 3] - edges[i + 2],
                        edges[i + 4] - edges[i + 3], edges[i + 5] - edges[i + 4]
                    )
                    guard Self.isFinderRatio(a, b, c, d, e) else { continue }
                    let total = a + b + c + d + e
                    guard total >= Self.smallestPattern,
                        Self.hasContrast(pixels, row: row, starts: edges[i], a, b, c, d, e)
                    else { continue }
                    let centreX = edges[i + 2] + c / 2
                    // Runs alternate in colour from the row's first.
                    let darkCentre = firstDark == (i % 2 == 0)
                    let unit = max(1, total / 7)
                    let lo = max(0, centreX - radius)
                    let hi = min(width, centreX + radius + 1)
                    guard
                        let (centreY, isAslant, isFaint) = Self.confirmedVertically(
                            pixels, width: width, height: height, x: centreX, y: y, darkCentre: darkCentre,
                            threshold: line[lo..<hi].reduce(0) { $0 + Int($1) } / (hi - lo), total: total),
                        aslant || !isAslant
                    else { continue }
                    let mark = (
                        x: centreX, y: centreY, unit: unit, total: total, dark: darkCentre, aslant: isAslant,
                        faint: isFaint
                    )
                    if let same = found.firstIndex(where: {
                        abs($0.x - centreX) <= 3 * unit && abs($0.y - centreY) <= 3 * unit
                    }) {
                        // A pattern first met aslant on a row across its edge, then upright through its centre.
                        // Or first through a faint ring (`hasFaintRing`), then with both sides of its column closed:
                        // the closed one kept, counted once.
                        if found[same].faint, !found[same].aslant, !isFaint, !isAslant {
                            found[same] = mark
                            continue
                        }
                        guard found[same].aslant, !isAslant else { continue }
                        found[same] = mark
                    } else {
                        found.append(mark)
                    }
                    if !isAslant { upright += 1 }
                    // Aslant marks count towards twice the limit, not towards the gate's own.
                    if found.count / 2 >= stopAt || upright >= stopAt { return }
                }
            }
        }
        let scale = Double(factor)
        return found.map {
            Finder(
                centre: SIMD2(Double($0.x) * scale + scale / 2, Double($0.y) * scale + scale / 2),
                module: Double($0.total) / 7 * scale, darkCentre: $0.dark, isAslant: $0.aslant, isFaint: $0.faint)
        }
    }

    /// The integer factor `frame` is box-averaged down by for the look.
    func factor(for frame: GrayFrame) -> Int {
        max(1, min(frame.width, frame.height) / workingSide)
    }

    /// A pixel this light is saturated: glare, a bright spot, a white marker stroke, or paper the camera
    /// overexposed.
    static let saturated = 250
    /// Grey levels between the 90th and the 10th percentile of a row's unsaturated pixels for the 90th to be paper.
    static let paperOverInk = 32

    /// Row `row` with its saturated pixels as the row's paper, written into `paperRow`; nil when the row is to be
    /// taken as it is. A saturated pixel says only that it is at least that light: counted as it is, a bright spot
    /// or a white stroke beside a dim code (paper at 60 grey levels, the stroke at 255) lifts its window's mean so far
    /// that the code's light rings read as dark next to it. So in a row with saturated pixels, each counts as the
    /// row's paper: the 90th percentile of its other pixels, when that is lighter than their ink (`paperOverInk`).
    /// `histogram` is the look's own scratch space (one per look, not one per row: rows are 30 frames a second).
    static func withSaturatedAsPaper(
        _ pixels: UnsafeBufferPointer<UInt8>, row: Int, width: Int, into paperRow: UnsafeMutableBufferPointer<UInt8>,
        histogram: UnsafeMutableBufferPointer<Int>
    ) -> UnsafeBufferPointer<UInt8>? {
        let line = pixels.baseAddress! + row
        var lit = 0
        for x in 0..<width { lit &+= line[x] >= saturated ? 1 : 0 }
        guard lit > 0, lit < width else { return nil }
        histogram.update(repeating: 0)
        for x in 0..<width where line[x] < saturated { histogram[Int(line[x])] += 1 }
        func percentile(_ tenths: Int) -> Int {
            let rank = (width - lit) * tenths / 10
            var level = 0
            var below = 0
            while level < saturated - 1, below + histogram[level] <= rank {
                below += histogram[level]
                level += 1
            }
            return level
        }
        let paper = UInt8(percentile(9))
        // Paper no lighter than ink among the other pixels: the paper itself is what is saturated (a clean print,
        // an overexposed page), and its pixels count as they are.
        guard Int(paper) - percentile(1) >= paperOverInk else { return nil }
        for x in 0..<width { paperRow[x] = line[x] >= saturated ? paper : line[x] }
        return UnsafeBufferPointer(rebasing: paperRow[0..<width])
    }

    /// A row's pixels as dark or light against the mean of the window `radius` pixels either side in `means` (the
    /// row, or the row with its saturated pixels as paper: `withSaturatedAsPaper`), as runs of one colour: how many,
    /// and whether the first is dark; run `i` is `edges[i]..<edges[i + 1]`, and its colour alternates from the
    /// first's. Hysteresis: a pixel within `margin` of its window's mean keeps the colour before it, so sensor noise
    /// on a flat wall does not break into runs.
    static func runs(
        _ row: UnsafeBufferPointer<UInt8>, means: UnsafeBufferPointer<UInt8>, radius: Int, margin: Int,
        edges: UnsafeMutableBufferPointer<Int>
    ) -> (count: Int, firstDark: Bool) {
        let pixel = row.baseAddress!
        let line = means.baseAddress!
        let width = row.count
        let ends = edges.baseAddress!
        // Branch-free: in print and clothing the colour changes every few pixels, and a branch on it is mostly
        // mispredicted. Each pixel writes itself as the next run's start, kept only when the colour changed there.
        // Colours as 0 (light) and 1 (dark), in arithmetic: Swift's `||` and `&&` branch.
        var previous = 0
        var count = 1
        ends[0] = 0
        // The window's sum, slid along the row: pixel x's window is max(0, x - radius)..<min(width, x + radius + 1).
        var sum = 0
        for x in 0..<Swift.min(width, radius &+ 1) { sum &+= Int(line[x]) }
        @inline(__always) func step(_ x: Int, window: Int) {
            let difference = Int(pixel[x]) &* window &- sum
            let band = margin &* window
            // 1 where the pixel is below its window's mean by more than the band, or above it by more.
            let darker = Int(bitPattern: UInt(bitPattern: difference &+ band) >> 63)
            let lighter = Int(bitPattern: UInt(bitPattern: band &- difference) >> 63)
            let next = darker | (previous & (lighter ^ 1))
            ends[count] = x
            count &+= next ^ previous
            previous = next
        }
        // The first pixel opens the first run.
        step(0, window: Swift.min(width, radius &+ 1))
        let firstDark = previous == 1
        count = 1
        // The window grows at the left edge, slides, and shrinks at the right (a row is over twice the window).
        let grown = Swift.min(radius &+ 1, width)
        let slid = Swift.max(grown, width &- radius)
        for x in 1..<grown {
            sum &+= Int(line[x &+ radius])
            step(x, window: x &+ radius &+ 1)
        }
        let full = 2 &* radius &+ 1
        for x in grown..<slid {
            sum &+= Int(line[x &+ radius]) &- Int(line[x &- radius &- 1])
            step(x, window: full)
        }
        for x in slid..<width {
            sum &-= Int(line[x &- radius &- 1])
            step(x, window: width &- x &+ radius)
        }
        ends[count] = width
        return (count, firstDark)
    }

    /// Whether three of `finders` sit as the three finder patterns of one QR code: the same polarity, modules
    /// of about one size (within 2:1), and from one of them two sides of about one length (within 1.8:1, for
    /// perspective) at about a right angle (55 to 125 degrees), each 10 to 200 modules long (a version 1 code's
    /// finder centres are 14 modules apart, a version 40's 170), and no such mark at the fourth corner. Busy
    /// scenes (print, clothing, a keyboard) give finder-like marks, but rarely three in this geometry.
    public static func formACode(_ finders: [Finder]) -> Bool {
        formACode(finders) { _ in true }
    }

    /// `formACode`, counting only a triple `accept` takes, given where its three finder patterns are (the quiet zone
    /// past them: `PassImages.showsACode`).
    static func formACode(_ finders: [Finder], accepting accept: (FinderTriangle) -> Bool) -> Bool {
        guard finders.count >= 3 else { return false }
        for i in 0..<(finders.count - 2) {
            for j in (i + 1)..<(finders.count - 1) where Self.alike(finders[i], finders[j]) {
                for k in (j + 1)..<finders.count
                where Self.alike(finders[i], finders[k]) && Self.alike(finders[j], finders[k]) {
                    guard let corner = Self.corner(finders[i], finders[j], finders[k]) else { continue }
                    // A code's fourth corner holds data, not a fourth finder pattern; a lattice of marks (a
                    // checked shirt, a grid of keys) has one there.
                    let others = [finders[i], finders[j], finders[k]].filter { $0 != corner }
                    let fourth = others[0].centre + others[1].centre - corner.centre
                    let near = 4 * corner.module
                    let latticed = finders.contains { finder in
                        let d = finder.centre - fourth
                        return Self.alike(finder, corner) && (d * d).sum() <= near * near
                    }
                    let triangle = FinderTriangle(
                        corner: corner.centre, p: others[0].centre, q: others[1].centre,
                        module: (corner.module + others[0].module + others[1].module) / 3)
                    if !latticed, accept(triangle) { return true }
                }
            }
        }
        return false
    }

    /// The same polarity and modules within 2:1.
    static func alike(_ a: Finder, _ b: Finder) -> Bool {
        a.darkCentre == b.darkCentre && max(a.module, b.module) <= 2 * min(a.module, b.module)
    }

    /// The one of the three at the corner of two about equal sides at about a right angle, of a QR code's
    /// length in modules; nil when none is.
    static func corner(_ a: Finder, _ b: Finder, _ c: Finder) -> Finder? {
        let measured = (a.module + b.module + c.module) / 3
        // Each of the three in turn (called for every three of dozens of marks: no array of them).
        func isCorner(_ corner: Finder, _ p: Finder, _ q: Finder) -> Bool {
            let u = p.centre - corner.centre
            let v = q.centre - corner.centre
            let (lu, lv) = ((u * u).sum().squareRoot(), (v * v).sum().squareRoot())
            guard lu > 0, lv > 0 else { return false }
            let module = Finder.module(measured, alongSide: u / lu)
            guard min(lu, lv) >= 10 * module, max(lu, lv) <= 200 * module, max(lu, lv) <= 1.8 * min(lu, lv) else {
                return false
            }
            // cos 55° = 0.574
            return abs((u * v).sum()) <= 0.574 * lu * lv
        }
        if isCorner(a, b, c) { return a }
        if isCorner(b, a, c) { return b }
        if isCorner(c, a, b) { return c }
        return nil
    }

    /// The narrowest pattern counted, in pixels at the working size (modules of 1.5 px).
    static let smallestPattern = 10
    /// Grey levels between the pattern's dark and light runs: a printed or displayed code has dozens even in dim
    /// light; texture in a lobby that happens to fall into 1:1:3:1:1 mostly has less.
    static let minimumContrast = 6

    /// The centre run and the two outer runs differ from the two rings between them by `minimumContrast`.
    static func hasContrast(
        _ pixels: UnsafeBufferPointer<UInt8>, row: Int, starts: Int, _ a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int
    ) -> Bool {
        func mean(_ from: Int, _ count: Int) -> Int {
            var sum = 0
            for x in from..<(from + count) { sum += Int(pixels[row + x]) }
            return sum / max(count, 1)
        }
        let outerA = mean(starts, a)
        let ringB = mean(starts + a, b)
        let centre = mean(starts + a + b, c)
        let ringD = mean(starts + a + b + c, d)
        let outerE = mean(starts + a + b + c + d, e)
        let ring = max(ringB, ringD)
        let core = min(ringB, ringD)
        // Dark centre: every dark run below both rings; light centre: above.
        if centre < ring {
            return max(outerA, centre, outerE) + minimumContrast <= core
        }
        return min(outerA, centre, outerE) >= ring + minimumContrast
    }

    /// Runs in 1:1:3:1:1, each one-module run within half a module of the unit, the centre within 1.5.
    /// (Run lengths are pixels of one row: wrapping arithmetic cannot overflow, and is checked for none; this runs on
    /// every run of every row.)
    static func isFinderRatio(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int) -> Bool {
        let total = a &+ b &+ c &+ d &+ e
        guard total >= 7 else { return false }
        return within(a, total, 1) && within(b, total, 1) && within(c, total, 3) && within(d, total, 1)
            && within(e, total, 1)
    }

    /// `run` is `modules`/7 of `total`, give or take half a module per module and half a pixel.
    @inline(__always)
    private static func within(_ run: Int, _ total: Int, _ modules: Int) -> Bool {
        // |run - modules·total/7| <= modules·(total/7)/2 + 0.5, in integers (times 14).
        let off = run &* 14 &- modules &* total &* 2
        return (off < 0 ? 0 &- off : off) <= modules &* total &+ 7
    }

    /// The column through (`x`, `y`) crosses the same pattern (runs in 1:1:3:1:1, 0.7 to 1.4 times as long as the
    /// row's, or aslant: 0.3 to 3.5 times, a pattern seen steeply aslant or far turned): the row of its centre, or nil.
    /// One side of the column may show its outer ring only fainter than the threshold (`hasFaintRing`: glare).
    static func confirmedVertically(
        _ pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, x: Int, y: Int, darkCentre: Bool,
        threshold: Int, total: Int
    ) -> (centre: Int, aslant: Bool, faint: Bool)? {
        func isCentreColour(_ y: Int) -> Bool { (Int(pixels[y * width + x]) < threshold) == darkCentre }
        guard isCentreColour(y) else { return nil }
        let limit = total * 2
        // Up: centre, then the other colour, then the centre colour again; the same down.
        func runs(step: Int) -> (lengths: (Int, Int, Int), phase: Int) {
            // The runs' lengths, each in a register of its own (an indexed triple lives in memory).
            var lengths = (0, 0, 0)
            var yy = y
            var phase = 0
            var travelled = 0
            while phase < 3 {
                yy += step
                travelled += 1
                guard yy >= 0, yy < height, travelled <= limit else {
                    return (lengths, phase == 2 && lengths.2 > 0 ? 3 : phase)
                }
                if isCentreColour(yy) == (phase != 1) {
                    switch phase {
                    case 0: lengths.0 += 1
                    case 1: lengths.1 += 1
                    default: lengths.2 += 1
                    }
                } else {
                    phase += 1
                    if phase == 1 { lengths.1 = 1 } else if phase == 2 { lengths.2 = 1 }
                }
            }
            return (lengths, 3)
        }
        let (upRuns, upPhase) = runs(step: -1)
        let (downRuns, downPhase) = runs(step: 1)
        // Both sides as a finder pattern's; or one side, the other's light ring going on past where its outer ring
        // should be, and there a ring too faint for the threshold (`hasFaintRing`: glare across it), the pattern
        // taken as the whole side's mirrored. A side that shows a ring of the wrong size is no finder pattern's.
        guard upPhase >= 1, downPhase >= 1 else { return nil }
        var (up, down) = (upRuns, downRuns)
        if upPhase < 3 || downPhase < 3 {
            guard upPhase == 3 || downPhase == 3 else { return nil }
            let whole = upPhase == 3 ? upRuns : downRuns
            guard
                hasFaintRing(
                    pixels, width: width, x: x, from: y, step: upPhase == 3 ? 1 : -1,
                    centreRun: upPhase == 3 ? downRuns.0 : upRuns.0, module: max(1, (whole.1 + whole.2) / 2),
                    darkCentre: darkCentre, within: 0..<height)
            else { return nil }
            (up, down) = (whole, whole)
        }
        let centre = upRuns.0 + 1 + downRuns.0
        let sum = up.2 + up.1 + centre + down.1 + down.2
        guard isFinderRatio(up.2, up.1, centre, down.1, down.2), sum * 10 >= total * 3, sum * 10 <= total * 35
        else { return nil }
        // The row that found it may be anywhere across the centre square: the middle of the column's centre run.
        return (
            y + (downRuns.0 - upRuns.0) / 2, sum * 10 < total * 7 || sum * 10 > total * 14, upPhase < 3 || downPhase < 3
        )
    }
}

/// A finder pattern the gate found, in the frame's pixels.
public struct Finder: Equatable, Sendable {
    public var centre: SIMD2<Double>
    /// The width of one module, estimated from the pattern's 7 modules across.
    public var module: Double
    /// A dark centre (a dark-on-light code) or a light one (an inverted code).
    public var darkCentre: Bool
    /// Its column is far longer or shorter than its row (a pattern seen steeply aslant, or turned and sheared):
    /// such marks count for the grids only (`CodeGrid`), not as the gate's evidence, which print and clothing give
    /// more of.
    public var isAslant: Bool
    /// Seen through an outer ring fainter than the threshold on one side (`FinderPatternGate.hasFaintRing`: glare):
    /// not counted among the marks that make a frame busy (`PassImages.resampled`).
    public var isFaint: Bool

    /// The module of a code whose side runs along `direction` (a unit vector), from `measured`, a module as the
    /// gate measures it across a row and a column: those cross a turned code's pattern aslant, so its 7 modules
    /// measure up to 1.41 times their width at 45 degrees.
    static func module(_ measured: Double, alongSide direction: SIMD2<Double>) -> Double {
        measured * max(abs(direction.x), abs(direction.y))
    }

    public init(
        centre: SIMD2<Double>, module: Double, darkCentre: Bool, isAslant: Bool = false, isFaint: Bool = false
    ) {
        self.centre = centre
        self.module = module
        self.darkCentre = darkCentre
        self.isAslant = isAslant
        self.isFaint = isFaint
    }
}
