import GrayImage
import KioskCore

/// A code bent one way (a sticker round a can, a card bowed in a hand): its columns crowd together towards one side
/// or both, so a grid even between the finder patterns (or in perspective) samples its middle columns a module off
/// while its timing patterns still show. The timing patterns say where each column and row really is: row 6
/// alternates dark and light from the top-left finder pattern to the top-right one, module by module, and column 6
/// from the top-left to the bottom-left. Each boundary between two of their modules is found where the grey
/// changes most within about half a module of where the grid puts it, and the code is sampled with its columns
/// and rows placed between those boundaries instead of evenly; it is mended when its format information then reads
/// within a bit of a valid word (the flat grid's may not: the format modules by the far finder patterns lie off it
/// too). Boundaries that do not run in order a module or so apart (a grid of clutter: about one in fifty of a
/// version 1 grid's, fewer of a larger one's) give no try.
extension CodeGrid {
    /// Where this grid's module boundaries 7 to `dimension` − 7 lie along row 6 (`across`) and column 6 (`down`),
    /// in its own module coordinates (evenly spaced, boundary k is at k).
    struct TimingSpacing {
        let across: [Double]
        let down: [Double]

        /// A point in module coordinates moved to where the measured boundaries put it (between two boundaries
        /// in proportion; before boundary 7 and past boundary `dimension` − 7, with the finder patterns, by the
        /// nearest boundary's shift).
        func placed(_ point: SIMD2<Double>) -> SIMD2<Double> {
            SIMD2(Self.placed(point.x, along: across), Self.placed(point.y, along: down))
        }

        private static func placed(_ t: Double, along boundaries: [Double]) -> Double {
            let last = 7 + boundaries.count - 1
            if t <= 7 { return t + boundaries[0] - 7 }
            if t >= Double(last) { return t + boundaries[boundaries.count - 1] - Double(last) }
            let k = Int(t.rounded(.down))
            let (from, to) = (boundaries[k - 7], boundaries[k - 6])
            return from + (to - from) * (t - Double(k))
        }
    }

    /// The code's modules mended from greys sampled between the timing patterns' boundaries (`timingSpacing`), when
    /// its format information then reads within `bentGridFormatDistance` bits of a valid word; nil otherwise.
    func spacedModules(in frame: GrayFrame) -> [Bool]? {
        guard let spacing = timingSpacing(in: frame) else { return nil }
        let greys = greys(in: frame, spacing: spacing)
        let thresholds = thresholds(of: greys)
        guard formatDistance(greys, thresholds: thresholds) <= Self.bentGridFormatDistance else { return nil }
        return mended(from: greys, thresholds: thresholds)
    }

    /// The boundaries between the timing patterns' modules (and the finder patterns' rings at their ends) as this
    /// grid sees them, or nil when they do not run in order a module or so apart (no timing pattern there to go by).
    func timingSpacing(in frame: GrayFrame) -> TimingSpacing? {
        guard dimension >= 21, let across = boundaries(in: frame, across: true),
            let down = boundaries(in: frame, across: false)
        else { return nil }
        return TimingSpacing(across: across, down: down)
    }

    private func boundaries(in frame: GrayFrame, across: Bool) -> [Double]? {
        func grey(_ t: Double) -> Double {
            frame.bilinear(at: toFrame(across ? SIMD2(t, 6.5) : SIMD2(6.5, t)))
        }
        var found: [Double] = []
        for k in 7...(dimension - 7) {
            // Modules 6 and `dimension` − 7 are the finder patterns' dark rings, modules 7 and `dimension` − 8
            // their light separators, and the timing pattern between is dark on even modules.
            let intoDark = k == dimension - 7 || (k % 2 == 0 && k < dimension - 8)
            let darkening = intoDark == darkOnLight
            var best = (step: -Double.infinity, at: Double(k))
            for step in -Self.boundarySteps...Self.boundarySteps {
                let t = Double(k) + Double(step) * Self.boundaryStep
                let change = grey(t + Self.boundarySpan) - grey(t - Self.boundarySpan)
                let toward = darkening ? -change : change
                if toward > best.step { best = (toward, t) }
            }
            if let previous = found.last, !(0.4...1.6).contains(best.at - previous) { return nil }
            found.append(best.at)
        }
        return found
    }

    /// A boundary is looked for within `boundarySteps` × `boundaryStep` modules of where the grid puts it (half a
    /// module and a little more), by the change in grey over `boundarySpan` modules either side.
    private static let boundarySteps = 12
    private static let boundaryStep = 0.05
    private static let boundarySpan = 0.15
}
