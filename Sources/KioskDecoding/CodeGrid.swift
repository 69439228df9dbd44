import GrayImage
import KioskCore

/// A QR code's grid of modules laid on the frame from three of its finder patterns (and its alignment pattern,
/// when one is found, for perspective), sampled module by module, mended by the code's own error correction and
/// drawn again whole for the engines.
///
/// The engines find a code from the frame's own black and white: where a bright spot, glare or a shadow breaks
/// a finder pattern or a row of modules, they find nothing, even when the gate saw the three finder patterns.
/// Here each module's grey is read at its centre and compared with the modules around it (or with one
/// threshold for the whole code), which keeps a module dark in a bright spot as long as it is darker than its
/// neighbours; the code's blocks are mended with the least sure codewords as erasures (`mended`); and the code is
/// drawn again with every module as the standard and its mended codewords have it, so a finder pattern lost in
/// glare no longer hides the code, and only a code whose error correction succeeded is drawn. The three finder
/// patterns come from the gate: three placed as a code's corners (`triples`), or two with the timing patterns a
/// code would have between them and the third where they put it (`completed`); a grid is kept only where its own
/// timing patterns show (`grid`).
struct CodeGrid {
    /// Modules per side (21 for version 1, 4 more per version).
    let dimension: Int
    /// Module coordinates (0 to `dimension` across the code; a finder centre at 3.5) to the frame's pixels.
    let toFrame: Homography
    /// Dark modules on a light ground (a light centre in the finder patterns: an inverted code).
    let darkOnLight: Bool

    /// Pixels per module of the mended code as drawn, and its quiet zone in modules.
    static let scale = 4
    static let quietZone = 4

    /// The triples among `finders` placed as a code's corners (`FinderPatternGate.corner`), or with `steep` each of
    /// the three tried as the corner (sides up to `steepestSides`:1, at 35 to 145 degrees: a code seen steeply
    /// aslant is far from square), as top left, top right and bottom left, at most `limit`, the most square first
    /// (sides of one length at a right angle, modules of one size: marks inside a big code or in print make
    /// triples too, only roughly placed). Without `includingSquare`, not the triples of upright marks placed as the gate
    /// places a code's (those without `steep`).
    static func triples(
        _ finders: [Finder], limit: Int, steep: Bool = false, includingSquare: Bool = true
    ) -> [(Finder, Finder, Finder)] {
        var triples: [(score: Double, finders: (Finder, Finder, Finder))] = []
        guard finders.count >= 3 else { return [] }
        // Every three of dozens of marks in a busy frame: nothing allocated per three.
        func consider(_ corner: Finder, _ p: Finder, _ q: Finder, module: Double, modules: (min: Double, max: Double)) {
            let (u, v) = (p.centre - corner.centre, q.centre - corner.centre)
            let (lu, lv) = ((u * u).sum().squareRoot(), (v * v).sum().squareRoot())
            guard min(lu, lv) >= 10 * module, max(lu, lv) <= 200 * module,
                max(lu, lv) <= steepestSides * min(lu, lv), abs((u * v).sum()) <= steepestCosine * lu * lv
            else { return }
            // Rows run down the frame: the top right is the one turning clockwise to the bottom left.
            let clockwise = u.x * v.y - u.y * v.x > 0
            let score = max(lu, lv) / min(lu, lv) + abs((u * v).sum()) / (lu * lv) + modules.max / modules.min
            triples.append((score, clockwise ? (corner, p, q) : (corner, q, p)))
        }
        for i in 0..<(finders.count - 2) {
            for j in (i + 1)..<(finders.count - 1) where FinderPatternGate.alike(finders[i], finders[j]) {
                for k in (j + 1)..<finders.count
                where FinderPatternGate.alike(finders[i], finders[k]) && FinderPatternGate.alike(finders[j], finders[k])
                {
                    let (a, b, c) = (finders[i], finders[j], finders[k])
                    let square =
                        !a.isAslant && !b.isAslant && !c.isAslant ? FinderPatternGate.corner(a, b, c) : nil
                    if !steep {
                        guard square != nil else { continue }
                    } else if !includingSquare, square != nil {
                        // The gate's own triples, tried before.
                        continue
                    }
                    let module = (a.module + b.module + c.module) / 3
                    let modules = (min: min(a.module, b.module, c.module), max: max(a.module, b.module, c.module))
                    for (corner, p, q) in [(a, b, c), (b, a, c), (c, a, b)] where steep || corner == square {
                        consider(corner, p, q, module: module, modules: modules)
                    }
                }
            }
        }
        return triples.sorted { $0.score < $1.score }.prefix(limit).map(\.finders)
    }

    /// Triples with a third finder pattern where two alike marks put it (a bright spot or glare often hides one of
    /// a code's three): beside either of them at the distance between them, on either side (neighbouring corners),
    /// or at the apex of the right isosceles triangle on either side (opposite corners); as top left, top right and
    /// bottom left, at most `limit`. Only pairs with a code's timing patterns where the two would have them
    /// (`TimingPattern.joins`, the gate's own evidence), of at most `pairsLooked` alike pairs; `grid` then keeps
    /// the triples whose own timing patterns show.
    static func completed(_ finders: [Finder], in image: GrayFrame, limit: Int) -> [(Finder, Finder, Finder)] {
        var triples: [(Finder, Finder, Finder)] = []
        guard finders.count >= 2 else { return [] }
        var looked = 0
        for i in 0..<(finders.count - 1) {
            for j in (i + 1)..<finders.count where FinderPatternGate.alike(finders[i], finders[j]) {
                let (a, b) = (finders[i], finders[j])
                let side = b.centre - a.centre
                let length = (side * side).sum().squareRoot()
                let module = (a.module + b.module) / 2
                guard length >= 10 * module, length <= 200 * module else { continue }
                looked += 1
                guard looked <= pairsLooked else { return triples }
                guard TimingPattern.joins(a, b, among: finders, in: image) else { continue }
                let normal = SIMD2(-side.y, side.x)
                func mark(_ centre: SIMD2<Double>) -> Finder {
                    Finder(centre: centre, module: module, darkCentre: a.darkCentre)
                }
                for way in [normal, -normal] {
                    let apex = mark((a.centre + b.centre) / 2 + way / 2)
                    for (corner, p, q) in [(a, b, mark(a.centre + way)), (b, a, mark(b.centre + way)), (apex, a, b)] {
                        let (u, v) = (p.centre - corner.centre, q.centre - corner.centre)
                        triples.append(u.x * v.y - u.y * v.x > 0 ? (corner, p, q) : (corner, q, p))
                        if triples.count >= limit { return triples }
                    }
                }
            }
        }
        return triples
    }

    /// How far from a square `triples` takes three marks to be with `steep`: sides up to 2.5:1, angles of 35 to 145 degrees
    /// (cos 35° = 0.82); the grid's own timing patterns then decide.
    static let steepestSides = 2.5
    static let steepestCosine = 0.82

    /// Pairs of finder patterns `completed` checks for timing patterns at most (a cluttered frame shows dozens of
    /// finder-like marks).
    static let pairsLooked = 80

    /// Whether this grid's finder patterns are where `other`'s are, within two modules (one code found twice).
    func overlaps(_ other: CodeGrid) -> Bool {
        let step = toFrame(SIMD2(4.5, 3.5)) - toFrame(SIMD2(3.5, 3.5))
        let near = 4 * (step * step).sum()
        let theirs = other.finderCentres
        return finderCentres.allSatisfy { point in theirs.contains { (($0 - point) * ($0 - point)).sum() <= near } }
    }

    /// The centres of the three finder patterns, in the frame's pixels.
    var finderCentres: [SIMD2<Double>] {
        let far = Double(dimension) - 3.5
        return [SIMD2(3.5, 3.5), SIMD2(far, 3.5), SIMD2(3.5, far)].map { toFrame($0) }
    }

    /// The grid three finder patterns most likely belong to, if its timing patterns show: of the dimensions within
    /// three versions of the one their distance and module size give (the gate measures the module coarsely), or,
    /// `inPerspective`, of the one their widths along the sides give (`SideModules`), the affine or perspective grid
    /// whose row 6 and column 6 best alternate one module at a time (`timingScore`), at least `minimumTiming`; set
    /// by the alignment pattern where one is found.
    static func grid(
        topLeft: Finder, topRight: Finder, bottomLeft: Finder, inPerspective: Bool = true, in frame: GrayFrame
    ) -> CodeGrid? {
        let across = topRight.centre - topLeft.centre
        let down = bottomLeft.centre - topLeft.centre
        // The gate measures a pattern across a row and a column, aslant across a turned code's pattern.
        let (lengthAcross, lengthDown) = ((across * across).sum().squareRoot(), (down * down).sum().squareRoot())
        let turn = max(abs(across.x), abs(across.y)) / lengthAcross
        let module = (topLeft.module + topRight.module + bottomLeft.module) / 3 * turn
        guard module > 0 else { return nil }
        let dark = topLeft.darkCentre
        let centres = [topLeft.centre, topRight.centre, bottomLeft.centre]
        let modules =
            inPerspective
            ? SideModules(
                centres, module: (topLeft.module + topRight.module + bottomLeft.module) / 3, darkCentre: dark,
                in: frame) : nil
        // Dimensions are 17 + 4 × version: within three versions of the one the gate's module gives, or of the one
        // the finder patterns' widths along each side give where they were measured (the geometric mean of a
        // side's two ends, exact for a side seen in perspective).
        func version(modulesBetween: Double) -> Int {
            modulesBetween.isFinite ? Int(((min(max(modulesBetween, 0), 200) - 10) / 4).rounded()) : 1
        }
        let fromGate = version(modulesBetween: (lengthAcross + lengthDown) / 2 / module)
        let fromWidths =
            modules.map {
                let counts = $0.counts(centres)
                return version(modulesBetween: (counts.across + counts.down) / 2)
            } ?? fromGate
        let versions = (min(fromGate, fromWidths) - 3)...(max(fromGate, fromWidths) + 3)
        guard
            let first = bestByTiming(
                centres, versions: versions, modules: modules, darkOnLight: dark, in: frame)
        else { return nil }
        // The gate finds a centre to a pixel or two (and a completed triple's third only roughly): each finder
        // pattern is looked for within a module of where the grid puts it, then the dimension chosen again.
        let refined = first.refinedCentres(in: frame)
        let firstVersion = (first.dimension - 17) / 4
        let (grid, corners) =
            bestByTiming(
                refined, versions: (firstVersion - 1)...(firstVersion + 1),
                modules: inPerspective
                    ? SideModules(refined, module: first.moduleSize, darkCentre: dark, in: frame) : nil,
                darkOnLight: dark,
                in: frame
            )
            .map { ($0, refined) } ?? (first, centres)
        let far = Double(grid.dimension) - 3.5
        let inner = Double(grid.dimension) - 6.5
        guard grid.dimension >= 25, let alignment = grid.alignmentPattern(in: frame),
            let projective = Homography(
                from: [SIMD2(3.5, 3.5), SIMD2(far, 3.5), SIMD2(3.5, far), SIMD2(inner, inner)],
                to: corners + [alignment]),
            projective.keepsInFront(grid.corners)
        else { return grid }
        return CodeGrid(dimension: grid.dimension, toFrame: projective, darkOnLight: dark)
    }

    /// Of the dimensions of `versions` (1 to 40), the grid on these three finder centres (top left, top right,
    /// bottom left) whose timing patterns show best, at least `minimumTiming`: the affine one (the parallelogram
    /// the three give) or, with the finder patterns' widths along the sides, the one in perspective (`perspective`).
    static func bestByTiming(
        _ centres: [SIMD2<Double>], versions: ClosedRange<Int>, modules: SideModules? = nil, darkOnLight: Bool,
        in frame: GrayFrame
    ) -> CodeGrid? {
        let (lowest, highest) = (max(1, versions.lowerBound), min(40, versions.upperBound))
        guard lowest <= highest else { return nil }
        var best: (score: Double, grid: CodeGrid)?
        for version in lowest...highest {
            let dimension = 17 + 4 * version
            let far = Double(dimension) - 3.5
            let affine = Homography(
                from: [SIMD2(3.5, 3.5), SIMD2(far, 3.5), SIMD2(3.5, far), SIMD2(far, far)],
                to: centres + [centres[1] + centres[2] - centres[0]])
            let inPerspective = modules.flatMap { perspective(centres, modules: $0, dimension: dimension) }
            for map in [affine, inPerspective].compactMap({ $0 }) {
                let grid = CodeGrid(dimension: dimension, toFrame: map, darkOnLight: darkOnLight)
                let score = grid.timingScore(in: frame)
                if score > best?.score ?? minimumTiming { best = (score, grid) }
            }
        }
        return best?.grid
    }

    /// The three finder patterns' centres, each where its 7×7 modules (dark centre 3×3, light ring, dark ring, in
    /// the code's colours) stand out best within a module of where this grid puts it, in quarter modules.
    func refinedCentres(in frame: GrayFrame) -> [SIMD2<Double>] {
        let far = Double(dimension) - 3.5
        return [SIMD2(3.5, 3.5), SIMD2(far, 3.5), SIMD2(3.5, far)].map { centre in
            var best = (score: -Double.infinity, at: centre)
            for step in 0..<81 {
                let candidate = centre + SIMD2(Double(step % 9) - 4, Double(step / 9) - 4) / 4
                var (dark, light) = (0.0, 0.0)
                for i in -3...3 {
                    for j in -3...3 {
                        let grey = frame.bilinear(at: toFrame(candidate + SIMD2(Double(i), Double(j))))
                        if max(abs(i), abs(j)) == 2 { light += grey } else { dark += grey }
                    }
                }
                // 16 modules in the light ring, 33 in the dark parts.
                let score = (light / 16 - dark / 33) * (darkOnLight ? 1 : -1)
                if score > best.score { best = (score, candidate) }
            }
            return toFrame(best.at)
        }
    }

    /// The share of row 6's and column 6's modules between the finder patterns that alternate as a timing
    /// pattern's do (dark on even columns), each against the mean of the four around it.
    func timingScore(in frame: GrayFrame) -> Double {
        let span = 8...(dimension - 9)
        func score(_ point: (Int) -> SIMD2<Double>) -> Double {
            let greys = span.map { frame.bilinear(at: toFrame(point($0))) }
            var hits = 0
            for (k, grey) in greys.enumerated() {
                let (lo, hi) = (max(0, k - 2), min(greys.count - 1, k + 2))
                let mean = greys[lo...hi].reduce(0, +) / Double(hi - lo + 1)
                let dark = (span.lowerBound + k) % 2 == 0
                if (grey < mean) == (dark == darkOnLight) { hits += 1 }
            }
            return Double(hits) / Double(greys.count)
        }
        return (score { SIMD2(Double($0) + 0.5, 6.5) } + score { SIMD2(6.5, Double($0) + 0.5) }) / 2
    }

    /// The share of timing-pattern modules a grid needs.
    static let minimumTiming = 0.7

    /// Where the bottom-right alignment pattern (a module of the code's colour, a ring of the ground's, a ring of
    /// the code's, centred 6.5 modules in from the bottom and right edges) best shows within 3 modules of where
    /// the affine map puts it, in the frame's pixels; nil when nothing there stands out.
    func alignmentPattern(in frame: GrayFrame) -> SIMD2<Double>? {
        let expected = Double(dimension) - 6.5
        var best: (score: Double, at: SIMD2<Double>)?
        for step in 0...24 * 24 {
            let offset = SIMD2(Double(step % 25) - 12, Double(step / 25) - 12) / 4
            let centre = SIMD2(expected, expected) + offset
            func grey(_ dx: Double, _ dy: Double) -> Double {
                frame.bilinear(at: toFrame(centre + SIMD2(dx, dy)))
            }
            var ring = 0.0
            var outer = 0.0
            for (dx, dy) in Self.around {
                ring += grey(dx, dy)
                outer += grey(2 * dx, 2 * dy)
            }
            ring /= 8
            outer /= 8
            let middle = grey(0, 0)
            let score = darkOnLight ? ring - max(middle, outer) : min(middle, outer) - ring
            if score > best?.score ?? Self.alignmentContrast { best = (score, toFrame(centre)) }
        }
        return best?.at
    }

    /// Grey levels the alignment pattern's ring must stand out from its centre and outer ring by.
    static let alignmentContrast = 12.0
    private static let around: [(Double, Double)] = [
        (-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1),
    ]

    /// Where in a module `greys` samples it: its centre and four points a fifth of a module from it.
    private static let samplesInModule = [SIMD2(0.0, 0), SIMD2(-0.2, 0), SIMD2(0.2, 0), SIMD2(0, -0.2), SIMD2(0, 0.2)]

    /// Each module's grey at its centre (the mean of five points a fifth of a module apart), row by row; with
    /// `spacing`, its columns and rows placed as the timing patterns have them (`TimingSpacing`).
    func greys(in frame: GrayFrame, spacing: TimingSpacing? = nil) -> [Double] {
        var greys: [Double] = []
        greys.reserveCapacity(dimension * dimension)
        for row in 0..<dimension {
            for column in 0..<dimension {
                let centre = SIMD2(Double(column) + 0.5, Double(row) + 0.5)
                var sum = 0.0
                for offset in Self.samplesInModule {
                    let point = centre + offset
                    sum += frame.bilinear(at: toFrame(spacing?.placed(point) ?? point))
                }
                greys.append(sum / 5)
            }
        }
        return greys
    }

    /// The code mended by its own error correction (`mended`) and drawn again whole, with the grid it was read
    /// on. Where this grid's blocks do not mend (a curved or bent code): this one with its columns and rows placed
    /// between its timing patterns' boundaries (`spacedModules`, when the format then reads); and, where this one's
    /// format information reads within a bit, this one with its far corner moved (`farCornersMoved`), each move as
    /// it is and spaced. Nil when none mends.
    func mendedCode(in frame: GrayFrame) -> (grid: CodeGrid, image: GrayFrame)? {
        let greys = greys(in: frame)
        let thresholds = thresholds(of: greys)
        if let modules = mended(from: greys, thresholds: thresholds) { return (self, drawn(modules)) }
        if let modules = spacedModules(in: frame) { return (self, drawn(modules)) }
        guard formatDistance(greys, thresholds: thresholds) <= Self.bentGridFormatDistance else { return nil }
        for moved in farCornersMoved(in: frame, levels: thresholds[0]) {
            let movedGreys = moved.greys(in: frame)
            if let modules = moved.mended(from: movedGreys, thresholds: moved.thresholds(of: movedGreys))
                ?? moved.spacedModules(in: frame)
            {
                return (moved, moved.drawn(modules))
            }
        }
        return nil
    }

    /// Each module's threshold, four ways: the mean of the modules around it (windows of 7, 5 and 11 modules
    /// across, less one grey level), then one threshold for the whole code (Otsu's).
    func thresholds(of greys: [Double]) -> [[Double]] {
        // Sums over the rectangle from the top-left corner to each module (one row and column of zeros before).
        let side = dimension + 1
        var sums = [Double](repeating: 0, count: side * side)
        for row in 0..<dimension {
            var rowSum = 0.0
            for column in 0..<dimension {
                rowSum += greys[row * dimension + column]
                sums[(row + 1) * side + column + 1] = sums[row * side + column + 1] + rowSum
            }
        }
        var thresholds = [3, 2, 5].map { radius in
            (0..<(dimension * dimension)).map { module in
                let (row, column) = (module / dimension, module % dimension)
                let (top, bottom) = (max(0, row - radius), min(dimension, row + radius + 1))
                let (left, right) = (max(0, column - radius), min(dimension, column + radius + 1))
                let sum =
                    sums[bottom * side + right] - sums[top * side + right] - sums[bottom * side + left]
                    + sums[top * side + left]
                return sum / Double((bottom - top) * (right - left)) - 1
            }
        }
        thresholds.append([Double](repeating: Self.otsu(greys), count: dimension * dimension))
        return thresholds
    }

    /// `dark` (each module, row by row: true dark) drawn at `scale` pixels per module with a quiet zone, dark 0 on
    /// light 255.
    func drawn(_ dark: [Bool]) -> GrayFrame {
        let side = (dimension + 2 * Self.quietZone) * Self.scale
        var pixels = [UInt8](repeating: 255, count: side * side)
        for row in 0..<dimension {
            for column in 0..<dimension where dark[row * dimension + column] {
                let x0 = (column + Self.quietZone) * Self.scale
                let y0 = (row + Self.quietZone) * Self.scale
                for y in y0..<(y0 + Self.scale) {
                    for x in x0..<(x0 + Self.scale) { pixels[y * side + x] = 0 }
                }
            }
        }
        return GrayFrame(width: side, height: side, pixels: pixels)
    }

    /// A sighting on a mended code, put back on the frame.
    func onFrame(_ sighting: Sighting) -> Sighting {
        var moved = sighting
        moved.corners = sighting.corners.map { toFrame($0 / Double(Self.scale) - Double(Self.quietZone)) }
        return moved
    }

    /// Otsu's threshold: the grey that best splits `values` into two classes.
    static func otsu(_ values: [Double]) -> Double {
        var histogram = [Double](repeating: 0, count: 256)
        for value in values { histogram[Int(max(0, min(255, value)))] += 1 }
        let total = Double(values.count)
        let sumAll = histogram.enumerated().reduce(0) { $0 + Double($1.offset) * $1.element }
        var (below, sumBelow, best, threshold) = (0.0, 0.0, -1.0, 128.0)
        for level in 0..<256 {
            below += histogram[level]
            sumBelow += Double(level) * histogram[level]
            let above = total - below
            guard below > 0, above > 0 else { continue }
            let difference = sumBelow / below - (sumAll - sumBelow) / above
            let between = below * above * difference * difference
            if between > best { (best, threshold) = (between, Double(level) + 0.5) }
        }
        return threshold
    }
}
