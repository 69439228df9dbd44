import GrayImage
import KioskCore

extension FinderPatternGate {
    /// Whether `finder`'s centre is a square blob along both diagonals too: the line through it at 45 degrees either
    /// way crosses a run of its centre's colour 0.2 to 0.9 times as long as the row's whole pattern (a finder
    /// pattern's 3-module centre along a diagonal, turned any way, blur widening it), then at least half a module of
    /// the other colour on both sides, and past that, on one side at least, a run of the centre's colour under three
    /// quarters as long as the centre's (a finder pattern's outer ring is a third of it; on its other side the ring
    /// may run into the code's data where a dim code's separator is lost). The gate finds its marks on rows and
    /// columns only: a checkerboard's diagonals run on through squares of one colour (past a corner, the next square
    /// either way), stripes and barcodes at about 45 degrees along one stripe, and moire much the same, so their
    /// marks are not square. The outer ring itself is not asked for: blur rounds a square's corners, where the
    /// diagonals cross it, and in BoofCV's blurred photos it is often gone there.
    static func isSquare(_ finder: Finder, in image: GrayFrame) -> Bool {
        let rowTotal = finder.module * 7
        return [SIMD2(1.0, 1.0), SIMD2(1.0, -1.0)].allSatisfy { direction in
            guard
                let (centreRun, ring, outer) = centreRun(
                    at: finder.centre, along: direction / 2.squareRoot(), rowTotal: rowTotal, module: finder.module,
                    darkCentre: finder.darkCentre, in: image)
            else { return false }
            return centreRun >= 0.2 * rowTotal && centreRun <= 0.9 * rowTotal && ring >= rowTotal / 14
                && outer < 0.75 * centreRun
        }
    }

    /// Samples a diagonal takes per pixel of its length.
    private static let samplesPerPixel = 2.0

    /// Along the line through `centre` in `direction` (a unit vector), up to `rowTotal` pixels either way, thresholded
    /// against the mean around each sample with hysteresis against noise: the length in pixels of the centre's run,
    /// the shorter of the other colour's runs on its two sides, and the shorter of the centre colour's runs past those
    /// (each cut by the line's end or the image's). Nil when the centre is not of its colour or the line has no
    /// contrast. Called for every mark the gate counts on a frame it looks past: no allocation.
    private static func centreRun(
        at centre: SIMD2<Double>, along direction: SIMD2<Double>, rowTotal: Double, module: Double, darkCentre: Bool,
        in image: GrayFrame
    ) -> (centre: Double, ring: Double, outer: Double)? {
        // As far as the row's whole pattern either way: a centre run longer than 0.9 of it is not asked for.
        let half = max(4, Int(rowTotal * samplesPerPixel))
        let count = 2 * half + 1
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * count + 1) { buffer in
            // Outside the image the line ends.
            var first = 0
            var last = 2 * half
            // Each sample the mean of two a third of a module to either side: a screen's pixel grid or sensor
            // noise crosses a diagonal every few pixels.
            let across = SIMD2(-direction.y, direction.x) * max(0.5, module / 3)
            for k in 0..<count {
                let point = centre + direction * (Double(k - half) / samplesPerPixel)
                if let a = TimingPattern.sample(image, at: point + across),
                    let b = TimingPattern.sample(image, at: point - across)
                {
                    buffer[k] = (a + b) / 2
                } else if k < half {
                    first = k + 1
                } else {
                    last = min(last, k - 1)
                }
            }
            guard first < half, last > half else { return nil }
            // `buffer[count + k]`: the sum of the samples before k, for the means around each.
            buffer[count] = 0
            for k in 0..<count { buffer[count + k + 1] = buffer[count + k] + (k >= first && k <= last ? buffer[k] : 0) }
            // The pattern reaches at most 0.71 of the row's whole pattern from its centre along a diagonal.
            var low = 255
            var high = 0
            let near = Int(0.75 * rowTotal * samplesPerPixel)
            for k in max(first, half - near)...min(last, half + near) {
                low = min(low, buffer[k])
                high = max(high, buffer[k])
            }
            guard high - low >= 2 * minimumContrast else { return nil }
            let band = (high - low) / 8
            // Dark or light against the mean of the samples within half the row's pattern (glare or a bright spot
            // shades a low-contrast code by more than its contrast across one pattern); within `band` of it, a
            // sample keeps the colour before it.
            let window = max(1, Int(rowTotal / 2 * samplesPerPixel))
            func isCentreColour(_ k: Int, previous: Bool) -> Bool {
                let lo = max(first, k - window)
                let hi = min(last, k + window)
                let mean = (buffer[count + hi + 1] - buffer[count + lo]) / (hi - lo + 1)
                if buffer[k] < mean - band { return darkCentre }
                if buffer[k] > mean + band { return !darkCentre }
                return previous
            }
            guard isCentreColour(half, previous: true) else { return nil }
            // From the centre outwards: the centre's colour, the other, the centre's again (the outer ring), up to the
            // other again.
            func runs(step: Int) -> (centre: Int, other: Int, outer: Int) {
                var lengths = (centre: 0, other: 0, outer: 0)
                var phase = 0
                var previous = true
                var k = half + step
                while k >= first, k <= last {
                    previous = isCentreColour(k, previous: previous)
                    if previous != (phase != 1) {
                        phase += 1
                        if phase == 3 { break }
                    }
                    switch phase {
                    case 0: lengths.centre += 1
                    case 1: lengths.other += 1
                    default: lengths.outer += 1
                    }
                    k += step
                }
                return lengths
            }
            let (back, forth) = (runs(step: -1), runs(step: 1))
            return (
                Double(back.centre + 1 + forth.centre) / samplesPerPixel,
                Double(min(back.other, forth.other)) / samplesPerPixel,
                Double(min(back.outer, forth.outer)) / samplesPerPixel
            )
        }
    }
}
