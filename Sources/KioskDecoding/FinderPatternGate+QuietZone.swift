import KioskCore

extension FinderPatternGate {
    /// How many of the six outer sides of the finder patterns `triangle` places hold the code's quiet zone, by
    /// `rule`: on each pattern's two sides that face away from the code, a band from 1.25 to 2.75 modules past its
    /// outer ring (past a thin border, clear of the ring's blur), 6 modules wide across it. Out of the image counts
    /// as quiet (a code at the frame's edge).
    static func quietSides(of triangle: FinderTriangle, by rule: QuietZone, in image: GrayFrame) -> Int {
        let u = triangle.p - triangle.corner
        let v = triangle.q - triangle.corner
        let lu = (u * u).sum().squareRoot()
        let lv = (v * v).sum().squareRoot()
        guard lu > 0, lv > 0 else { return 0 }
        let (du, dv) = (u / lu, v / lv)
        let sides = [
            (triangle.corner, -du, dv), (triangle.corner, -dv, du), (triangle.p, du, dv), (triangle.p, -dv, du),
            (triangle.q, dv, du), (triangle.q, -du, dv),
        ]
        return sides.filter { centre, away, across in
            isQuiet(outside: centre, away: away, across: across, module: triangle.module, by: rule, in: image)
        }.count
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
        var above = [Int?](repeating: nil, count: 5)
        for distance in [4.75, 5.5, 6.25] {
            var before: Int?
            for (index, offset) in [-3.0, -1.5, 0, 1.5, 3.0].enumerated() {
                let point = centre + away * (distance * module) + across * (offset * module)
                let value = TimingPattern.sample(image, at: point)
                defer {
                    before = value
                    above[index] = value
                }
                guard let value else { continue }
                for neighbour in [before, above[index]] {
                    if let neighbour { steepest = max(steepest, abs(value - neighbour)) }
                }
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
