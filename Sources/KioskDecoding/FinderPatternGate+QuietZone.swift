import GrayImage
import KioskCore

extension FinderPatternGate {
    /// How many of the six outer sides of the finder patterns `triangle` places hold the code's quiet zone, by
    /// `rule`: on each pattern's two sides that face away from the code, a band from 1.25 to 2.75 modules past its
    /// outer ring (past a thin border, clear of the ring's blur), 6 modules wide across it. Out of the image counts
    /// as quiet (a code at the frame's edge).
    static func quietSides(of triangle: FinderTriangle, by rule: QuietZone, in image: GrayFrame) -> Int {
        var quiet = 0
        eachSide(of: triangle) { centre, away, across in
            if isQuiet(outside: centre, away: away, across: across, module: triangle.module, by: rule, in: image) {
                quiet += 1
            }
            return true
        }
        return quiet
    }

    /// Whether at least `wanted` of the six sides are quiet (`quietSides`), looking no further than it takes to know.
    static func hasQuietSides(_ wanted: Int, of triangle: FinderTriangle, by rule: QuietZone, in image: GrayFrame)
        -> Bool
    {
        var (quiet, noisy) = (0, 0)
        eachSide(of: triangle) { centre, away, across in
            if isQuiet(outside: centre, away: away, across: across, module: triangle.module, by: rule, in: image) {
                quiet += 1
            } else {
                noisy += 1
            }
            return quiet < wanted && 6 - noisy >= wanted
        }
        return quiet >= wanted
    }

    /// Each of the six outer sides of `triangle`'s finder patterns in turn, as the pattern's centre, the way away from
    /// the code and the way along the side, while `body` says to go on.
    private static func eachSide(
        of triangle: FinderTriangle,
        _ body: (_ centre: SIMD2<Double>, _ away: SIMD2<Double>, _ across: SIMD2<Double>) -> Bool
    ) {
        let u = triangle.p - triangle.corner
        let v = triangle.q - triangle.corner
        let lu = (u * u).sum().squareRoot()
        let lv = (v * v).sum().squareRoot()
        guard lu > 0, lv > 0 else { return }
        let (du, dv) = (u / lu, v / lv)
        _ =
            body(triangle.corner, -du, dv) && body(triangle.corner, -dv, du) && body(triangle.p, du, dv)
            && body(triangle.p, -dv, du) && body(triangle.q, dv, du) && body(triangle.q, -du, dv)
    }

    /// The band past the outer ring of the pattern centred at `centre`, in direction `away` (a unit vector), `across`
    /// along the pattern's side. No allocation: every pair and triple of marks the gate weighs may ask.
    private static func isQuiet(
        outside centre: SIMD2<Double>, away: SIMD2<Double>, across: SIMD2<Double>, module measured: Double,
        by rule: QuietZone, in image: GrayFrame
    ) -> Bool {
        let module = Finder.module(measured, alongSide: away)
        guard let dark = TimingPattern.sample(image, at: centre),
            let ring = TimingPattern.sample(image, at: centre + away * (2 * module))
        else { return true }
        let contrast = abs(ring - dark)
        guard contrast >= 2 * minimumContrast else { return false }
        // Three rows of five samples, 0.75 and 1.5 modules apart; the steepest step between neighbours (a shadow,
        // glare or a bright spot shades the band smoothly; texture steps).
        var (steepest, sum, count, inky) = (0, 0, 0, 0)
        // The row before's five samples, -1 where out of the image.
        var above = SIMD8<Int>(repeating: -1)
        for row in 0..<3 {
            let distance = 4.75 + 0.75 * Double(row)
            var before = -1
            for index in 0..<5 {
                let offset = -3.0 + 1.5 * Double(index)
                let point = centre + away * (distance * module) + across * (offset * module)
                let value = TimingPattern.sample(image, at: point) ?? -1
                defer {
                    before = value
                    above[index] = value
                }
                guard value >= 0 else { continue }
                if before >= 0 { steepest = max(steepest, abs(value - before)) }
                if above[index] >= 0 { steepest = max(steepest, abs(value - above[index])) }
                sum += value
                count += 1
                // Nearer the centre's shade than the ring's by three quarters of their difference, or past it.
                if (value - dark) * (ring - dark) < 0 || 4 * abs(value - dark) < 3 * contrast { inky += 1 }
            }
        }
        guard count > 0 else { return true }
        switch rule {
        case .oneShade: return 2 * steepest <= max(contrast, abs(sum / count - ring))
        case .unmixed: return inky <= 1 || count - inky <= 1
        }
    }
}
