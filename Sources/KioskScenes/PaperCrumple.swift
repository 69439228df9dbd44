import Foundation

/// Crumpling and folding of a printed pass: a smooth random displacement of the paper (it no longer lies flat,
/// so modules bend and squeeze), creases that shift one side against the other, and the shading those slopes
/// catch from the light.
struct PaperCrumple: Sendable {
    /// Peak displacement of the smooth crumple, in modules.
    var amplitude: Double
    /// Number of straight creases through the code.
    var folds: Int

    /// `card` as it looks crumpled: resampled through the displacement field, then shaded.
    func applied(to card: PrintedCard, using rng: inout some RandomNumberGenerator) -> SceneImage {
        let module = card.pixelsPerModule
        let size = card.size
        let fieldX = ValueNoise(width: size.x, height: size.y, cell: 6 * module, using: &rng)
        let fieldY = ValueNoise(width: size.x, height: size.y, cell: 6 * module, using: &rng)
        let relief = ValueNoise(width: size.x, height: size.y, cell: 4 * module, using: &rng)
        let creases = (0..<folds).map { _ in
            Crease(
                through: card.codeOrigin + SIMD2(rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8)) * card.codeSide,
                angle: rng.uniform(0, .pi),
                shift: rng.randomSign() * rng.uniform(0.3, 0.7) * amplitude * module,
                width: rng.uniform(0.8, 2) * module,
                darkening: rng.uniform(0.06, 0.16))
        }
        let displacement = amplitude * module
        let reliefShading = 0.07 * min(amplitude * 2, 1)
        let (w, h) = (card.image.width, card.image.height)
        var result = SceneImage(width: w, height: h)
        card.image.pixels.withUnsafeBufferPointer { source in
            result.pixels.withUnsafeMutableBufferPointer { destination in
                for y in 0..<h {
                    let py = Double(y) + 0.5
                    for x in 0..<w {
                        let px = Double(x) + 0.5
                        var fromX = px + fieldX.value(x: px, y: py) * displacement
                        var fromY = py + fieldY.value(x: px, y: py) * displacement
                        var shade = 1 + reliefShading * relief.value(x: px, y: py)
                        for crease in creases {
                            let distance =
                                ((px - crease.x) * crease.normalX + (py - crease.y) * crease.normalY) / crease.width
                            let push = crease.shift * tanh(distance)
                            fromX += crease.normalX * push
                            fromY += crease.normalY * push
                            shade *= 1 - crease.darkening * (0.5 + 0.5 * tanh(3 * distance))
                            shade += 0.08 * exp(-distance * distance * 9)  // the lit ridge of the crease
                        }
                        let value = bilinearSample(source, width: w, height: h, x: fromX, y: fromY)
                        destination[y * w + x] = value * Float(shade)
                    }
                }
            }
        }
        return result
    }
}

/// A straight fold line in card pixels.
private struct Crease {
    /// A point on the line and its unit normal.
    var x: Double
    var y: Double
    var normalX: Double
    var normalY: Double
    /// How far the far side is pushed along the normal, in card pixels.
    var shift: Double
    /// Width of the bend, in card pixels.
    var width: Double
    /// How much darker the side facing away from the light is (0...1).
    var darkening: Double

    init(through point: SIMD2<Double>, angle: Double, shift: Double, width: Double, darkening: Double) {
        (x, y) = (point.x, point.y)
        (normalX, normalY) = (-sin(angle), cos(angle))
        self.shift = shift
        self.width = width
        self.darkening = darkening
    }
}
