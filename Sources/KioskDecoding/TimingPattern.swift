import GrayImage
import KioskCore

/// The timing patterns of a QR code: the rows of alternating dark and light modules, one module wide, that join
/// its finder patterns, three modules in from the line through their centres (row 6 and column 6 of the code).
/// Print, patterned clothing and keyboards give finder-like marks by the dozen, but almost never a one-module
/// alternation, as long as the distance says, running from one mark to another and stopping at both.
enum TimingPattern {
    /// Whether two of `finders` could be finder patterns of one code: alike, at a code's distance, and with the
    /// code's two timing patterns where those two would have them (`joins`); with `accepting`, only where it accepts
    /// the code's three finder patterns as placed (the third where it would be).
    static func joinsTwo(
        of finders: [Finder], in image: GrayFrame, accepting accept: (FinderTriangle) -> Bool = { _ in true }
    ) -> Bool {
        guard finders.count >= 2 else { return false }
        for i in 0..<(finders.count - 1) {
            for j in (i + 1)..<finders.count where FinderPatternGate.alike(finders[i], finders[j]) {
                if joins(finders[i], finders[j], among: finders, in: image, accepting: accept) { return true }
            }
        }
        return false
    }

    /// Two marks as neighbouring corners or as opposite ones, each with the code's two timing patterns where they
    /// would be: one mark's timing pattern alone could be chance in a busy texture, two at a right angle are not.
    /// Neighbours: the one between them, on one side, and the one from either of them to where the third finder
    /// pattern would be on that side. Opposite: the two from the third's place (the apex of the right isosceles
    /// triangle on either side) to each of them.
    static func joins(
        _ a: Finder, _ b: Finder, among finders: [Finder], in image: GrayFrame,
        accepting accept: (FinderTriangle) -> Bool = { _ in true }
    ) -> Bool {
        let side = b.centre - a.centre
        let length = (side * side).sum().squareRoot()
        let normal = SIMD2(-side.y, side.x) / length
        let measured = (a.module + b.module) / 2
        // The code's sides give its turn (`Finder.module(_:alongSide:)`).
        func moduleAlong(_ direction: SIMD2<Double>) -> Double {
            Finder.module(measured, alongSide: direction)
        }
        var module = moduleAlong(side / length)
        // Neighbours: a version 1 code's finder centres are 14 modules apart, a version 40's 170.
        // `accept` is asked first: the quiet zone past the marks is fewer samples than a timing pattern, and in
        // clutter seldom there.
        if length >= 13 * module, length <= 180 * module {
            for inward in [normal, -normal] {
                let inside = (a.centre + b.centre) / 2 + inward * (length / 2)
                var between: Bool?
                for (corner, other) in [(a, b), (b, a)] {
                    let third = place(corner.centre + inward * length, near: finders, within: length / 5)
                    guard accept(FinderTriangle(corner: corner.centre, p: other.centre, q: third, module: measured))
                    else { continue }
                    if between == nil {
                        between = timing(from: a.centre, to: b.centre, inside: inside, module: module, in: image)
                    }
                    guard between == true else { break }
                    if timing(
                        from: corner.centre, to: third, inside: other.centre + inward * length, module: module,
                        in: image)
                    {
                        return true
                    }
                }
            }
        }
        // Opposite corners: the code's sides are at 45 degrees to the line between them.
        module = moduleAlong((side / length + normal) / 2.squareRoot())
        let edge = length / 2.squareRoot()
        guard edge >= 13 * module, edge <= 180 * module else { return false }
        let middle = (a.centre + b.centre) / 2
        for way in [normal, -normal] {
            let apex = place(middle + way * (length / 2), near: finders, within: length / 7)
            if accept(FinderTriangle(corner: apex, p: a.centre, q: b.centre, module: measured)),
                timing(from: apex, to: a.centre, inside: b.centre, module: module, in: image),
                timing(from: apex, to: b.centre, inside: a.centre, module: module, in: image)
            {
                return true
            }
        }
        return false
    }

    /// Where the third finder pattern is: a square's corner is only roughly where a code in perspective has it (two
    /// modules off at the far end of a tilted phone's code, which loses the timing pattern along it), so a mark
    /// found near there is taken for it.
    static func place(_ predicted: SIMD2<Double>, near finders: [Finder], within distance: Double) -> SIMD2<Double> {
        var best = predicted
        var nearest = distance * distance
        for finder in finders {
            let d = finder.centre - predicted
            if (d * d).sum() < nearest {
                nearest = (d * d).sum()
                best = finder.centre
            }
        }
        return best
    }

    /// The timing pattern between finder patterns centred at `from` and `to`: on the line between them moved three
    /// modules towards `inside` (a point within the code).
    static func timing(
        from: SIMD2<Double>, to: SIMD2<Double>, inside: SIMD2<Double>, module: Double, in image: GrayFrame
    ) -> Bool {
        let side = to - from
        var normal = SIMD2(-side.y, side.x) / (side * side).sum().squareRoot()
        if ((inside - from) * normal).sum() < 0 { normal = -normal }
        // A checkerboard or stripes alternate along every line; a code's row through its finder patterns' centres
        // holds data there, which does not.
        return runs(
            from: from, to: to, normal: normal, module: module, offsets: [2.4, 2.7, 3.0, 3.3, 3.6],
            endingAtTheFinders: true, in: image)
            && !runs(from: from, to: to, normal: normal, module: module, offsets: [-0.4, 0, 0.4], in: image)
    }

    /// Whether the line from `a` to `b`, moved three modules along `normal`, alternates one module at a time
    /// between their outer edges, at one of a few offsets (the centres are found to about half a module). With
    /// `endingAtTheFinders`, only where it stops at both: the same line across each finder pattern is quiet
    /// (`isQuiet`) against the contrast of the line's first and last four modules.
    static func runs(
        from a: SIMD2<Double>, to b: SIMD2<Double>, normal: SIMD2<Double>, module: Double, offsets: [Double],
        endingAtTheFinders: Bool = false, in image: GrayFrame
    ) -> Bool {
        let side = b - a
        let length = (side * side).sum().squareRoot()
        let along = side / length
        // From the outer edge of one finder pattern to the other's: 3.5 modules in from each centre.
        let start = 3.5 * module
        let span = length - 7 * module
        guard span >= 4 * module else { return false }
        let step = max(0.5, module / 3)
        let count = Int(span / step)
        var samples = [Int](repeating: 0, count: count)
        // The line's first and last four modules, as samples.
        let endSamples = min(count, Int(4 * module / step))
        for offset in offsets {
            let origin = a + normal * (offset * module) + along * start
            if endingAtTheFinders {
                // First the stretches across the finder patterns, against the contrast of the line's first and last
                // four modules: in clutter the alternation seldom stops at both, and the whole line, up to 170
                // modules at five offsets for each pair of marks, is not sampled (cluttered frames without a code:
                // 2.26x bare zbar by the mean -> 2.05x).
                var low = 255
                var high = 0
                func spans(_ samples: Range<Int>) -> Bool {
                    for k in samples {
                        guard let value = sample(image, at: origin + along * (Double(k) * step)) else { return false }
                        low = min(low, value)
                        high = max(high, value)
                    }
                    return true
                }
                guard spans(0..<endSamples), spans(max(endSamples, count - endSamples)..<count) else { return false }
                func isQuiet(across finder: SIMD2<Double>) -> Bool {
                    Self.isQuiet(
                        at: finder + normal * (offset * module), along: along, module: module, step: step,
                        contrast: max(0, high - low), in: image)
                }
                guard isQuiet(across: a), isQuiet(across: b) else { continue }
            }
            for k in 0..<count {
                let point = origin + along * (Double(k) * step)
                guard let value = sample(image, at: point) else { return false }
                samples[k] = value
            }
            if alternates(samples, step: step, module: module) { return true }
        }
        return false
    }

    /// Whether the line through a finder pattern, where it meets the timing pattern, holds one shade across the
    /// pattern's middle three modules (its range, averaged over a module, at most half `contrast`: the timing
    /// pattern's, at its ends): it runs along one of the pattern's rings there (row 5, 6 or 7 of the code, whichever
    /// the offset hits). In stripes, a checkerboard or lines of print the alternation goes on through the mark
    /// (cluttered frames without a code went through the whole cascade 41 times in 120, 24 with this;
    /// docs/benchmarks/2026-11-29-decoder.md). Out of the image counts as quiet: a finder pattern at the edge. Called for every pair of
    /// marks on every frame the gate looks at: no allocation.
    static func isQuiet(
        at centre: SIMD2<Double>, along: SIMD2<Double>, module: Double, step: Double, contrast: Int, in image: GrayFrame
    ) -> Bool {
        // A module's mean at each place: sensor noise on a dim, low-contrast code is as large as its contrast.
        let window = max(1, Int((module / step).rounded()))
        let places = stride(from: -1.5, through: 1.5, by: step / module)
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: Int(3 * module / step) + 2) { values in
            var count = 0
            for k in places where count < values.count {
                guard let value = sample(image, at: centre + along * (k * module)) else { return true }
                values[count] = value
                count += 1
            }
            guard count >= window else { return true }
            var sum = values[0..<window].reduce(0, +)
            var (low, high) = (sum, sum)
            for k in window..<count {
                sum += values[k] - values[k - window]
                low = min(low, sum)
                high = max(high, sum)
            }
            return 2 * (high - low) <= contrast * window
        }
    }

    /// One module at a time: the runs, thresholded locally, number about the modules the span holds, none
    /// longer than two modules and a bit, and the span has contrast.
    static func alternates(_ samples: [Int], step: Double, module: Double) -> Bool {
        guard let low = samples.min(), let high = samples.max(), high - low >= 2 * FinderPatternGate.minimumContrast
        else { return false }
        // Dark or light against the mean of about four modules around each sample: glare and shadow change the
        // light along the line (one mean for the whole line lost 3 of BoofCV's glare codes).
        let half = max(2, Int(2 * module / step))
        var prefix = [0]
        prefix.reserveCapacity(samples.count + 1)
        for value in samples { prefix.append(prefix[prefix.count - 1] + value) }
        let dark = samples.indices.map { k in
            let lo = max(0, k - half)
            let hi = min(samples.count, k + half + 1)
            return samples[k] * (hi - lo) < prefix[hi] - prefix[lo]
        }
        var lengths: [Int] = []
        var run = 1
        for k in 1..<samples.count {
            if dark[k] == dark[k - 1] {
                run += 1
            } else {
                lengths.append(run)
                run = 1
            }
        }
        lengths.append(run)
        let modules = Double(samples.count) * step / module
        let runs = Double(lengths.count)
        guard runs >= 0.6 * modules, runs <= 1.5 * modules, Double(lengths.max()!) * step <= 2.2 * module else {
            return false
        }
        // One module each, give or take: the runs within (the first and last may be cut by the ends) of about the
        // module's length, nearly all of them. A line across a turned checkerboard cuts squares at their corners
        // and alternates with runs of every length.
        let inner = lengths.dropFirst().dropLast().map { Double($0) * step / module }
        guard inner.count >= 3 else { return true }
        let regular = inner.filter { $0 >= 0.5 && $0 <= 1.6 }.count
        return Double(regular) >= 0.85 * Double(inner.count)
    }

    /// The grey level at `point`, bilinear (`GrayFrame.bilinear`); nil where it needs a pixel outside the image.
    static func sample(_ image: GrayFrame, at point: SIMD2<Double>) -> Int? {
        let x = point.x - 0.5
        let y = point.y - 0.5
        guard x >= 0, y >= 0, x < Double(image.width - 1), y < Double(image.height - 1) else { return nil }
        return Int(image.bilinear(at: point))
    }
}
