import Foundation
import KioskDecoding

/// Busy, sharp things in a door camera's view that are not a pass: the holder's patterned shirt, a printed page, a
/// poster, a keyboard on the desk, a screen's moire, and other barcodes (a product's EAN-13, a Data Matrix label,
/// a PDF417 on an ID card). Each is drawn as a flat layer, turned and seen in mild perspective, in front of the
/// lobby and behind the pass. The decoder must neither read them nor spend its whole cascade on them.
public enum SceneClutter: String, CaseIterable, Sendable {
    case stripes
    case plaid
    case checkerboard
    case printedText
    case keyboard
    case moire
    case ean13
    case dataMatrix
    case pdf417

    /// Draws `count` random kinds of clutter, each somewhere in `scene`.
    static func draw(_ count: Int, into scene: inout SceneImage, using rng: inout some RandomNumberGenerator) {
        for _ in 0..<count {
            let kind = allCases[rng.index(below: allCases.count)]
            kind.draw(into: &scene, using: &rng)
        }
    }

    /// Draws this kind of clutter once, at a random place, angle and size in `scene`.
    func draw(into scene: inout SceneImage, using rng: inout some RandomNumberGenerator) {
        let layer = self.layer(using: &rng)
        let (w, h) = (Double(scene.width), Double(scene.height))
        let scale = rng.uniform(0.2, 0.55) * min(w, h) / Double(max(layer.width, layer.height))
        let size = SIMD2(Double(layer.width), Double(layer.height)) * scale
        let centre = SIMD2(rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h)
        let angle = rng.uniform(-0.7, 0.7)
        let (c, s) = (cos(angle), sin(angle))
        let halves = [SIMD2(-1.0, -1.0), SIMD2(1, -1), SIMD2(1, 1), SIMD2(-1, 1)]
        let corners = halves.map { unit -> SIMD2<Double> in
            let local = unit * size / 2 * SIMD2(rng.uniform(0.92, 1.08), rng.uniform(0.92, 1.08))
            return centre + SIMD2(c * local.x - s * local.y, s * local.x + c * local.y)
        }
        let source = [
            SIMD2(0.0, 0.0), SIMD2(Double(layer.width), 0), SIMD2(Double(layer.width), Double(layer.height)),
            SIMD2(0, Double(layer.height)),
        ]
        guard let mapping = Homography(mapping: source, to: corners) else { return }
        scene.paint(layer.prefiltered(forScale: scale), through: mapping)
    }

    /// The flat layer, at about 3 layer pixels per frame pixel or finer (its own detail, before scaling).
    func layer(using rng: inout some RandomNumberGenerator) -> SceneImage {
        let dark = Float(rng.uniform(10, 90))
        let light = Float(rng.uniform(160, 245))
        switch self {
        case .stripes:
            let period = rng.uniform(6, 30)
            return Self.pattern(240, 300) { x, _ in
                x.truncatingRemainder(dividingBy: period) < period / 2 ? dark : light
            }
        case .plaid:
            let (p, q) = (rng.uniform(8, 40), rng.uniform(8, 40))
            return Self.pattern(300, 300) { x, y in
                let a = x.truncatingRemainder(dividingBy: p) < p / 3
                let b = y.truncatingRemainder(dividingBy: q) < q / 3
                return a && b ? dark : (a || b ? (dark + light) / 2 : light)
            }
        case .checkerboard:
            let cell = rng.uniform(6, 30)
            return Self.pattern(300, 300) { x, y in
                (Int(x / cell) + Int(y / cell)).isMultiple(of: 2) ? dark : light
            }
        case .moire:
            // A grating near the camera's own pixel pitch: it aliases into slow beats.
            let period = rng.uniform(2.2, 3.4)
            let turn = rng.uniform(0, .pi)
            return Self.pattern(360, 270) { x, y in
                let t = (x * cos(turn) + y * sin(turn)) / period
                return (dark + light) / 2 + (light - dark) / 2 * Float(sin(2 * .pi * t))
            }
        case .printedText:
            return Self.printedPage(dark: dark, light: light, using: &rng)
        case .keyboard:
            return Self.keyboard(using: &rng)
        case .ean13, .dataMatrix, .pdf417:
            return barcode(dark: dark, light: light, using: &rng)
        }
    }

    private func barcode(dark: Float, light: Float, using rng: inout some RandomNumberGenerator) -> SceneImage {
        let digits = (0..<12).map { _ in String(rng.index(below: 10)) }.joined()
        let words = (0..<(8 + rng.index(below: 40))).map { _ in String(UnicodeScalar(65 + rng.index(below: 26))!) }
        let (format, text, module, barHeight): (BarcodeWriter.Format, String, Int, Int) =
            switch self {
            case .ean13: (.ean13, digits, 3, 70)
            case .dataMatrix: (.dataMatrix, words.joined(), 6, 0)
            default: (.pdf417, words.joined(), 3, 0)
            }
        guard let code = BarcodeWriter.draw(format, text) else { return SceneImage(width: 8, height: 8, fill: light) }
        // One-dimensional codes come one pixel high: stretch them into bars; PDF417 rows are three modules high.
        let rows = barHeight > 0 ? barHeight : code.height * module * (format == .pdf417 ? 3 : 1)
        let quiet = 6 * module
        let (width, height) = (code.width * module + 2 * quiet, rows + 2 * quiet)
        return Self.pattern(width, height) { x, y in
            let (cx, cy) = (Int(x) - quiet, Int(y) - quiet)
            guard cx >= 0, cy >= 0, cx < code.width * module, cy < rows else { return light }
            let row = barHeight > 0 ? 0 : cy * code.height / rows
            return code.pixels[row * code.width + cx / module] == 0 ? dark : light
        }
    }

    private static func printedPage(dark: Float, light: Float, using rng: inout some RandomNumberGenerator)
        -> SceneImage
    {
        var page = SceneImage(width: 300, height: 360, fill: light)
        let size = rng.uniform(5, 10)
        var y = size
        while y + size < Double(page.height) - size {
            var x = size
            while x < Double(page.width) - 2 * size {
                // A word: letters of strokes and bowls.
                for _ in 0..<(2 + rng.index(below: 7)) where x < Double(page.width) - 2 * size {
                    let glyphWidth = size * rng.uniform(0.5, 0.9)
                    if rng.coinFlip() {
                        page.fillEllipse(
                            center: SIMD2(x + glyphWidth / 2, y + size * 0.6),
                            radii: SIMD2(glyphWidth / 2, size * 0.35), value: dark, softness: 0.5)
                        page.fillEllipse(
                            center: SIMD2(x + glyphWidth / 2, y + size * 0.6),
                            radii: SIMD2(glyphWidth / 4, size * 0.18), value: light, softness: 0.5)
                    } else {
                        let top = rng.coinFlip() ? y : y + size * 0.3
                        page.fillPolygon(rectangle(x, top, x + size * 0.18, y + size), value: dark)
                        page.fillPolygon(
                            rectangle(x, y + size * 0.3, x + glyphWidth, y + size * 0.45), value: dark)
                    }
                    x += glyphWidth + size * 0.2
                }
                x += size * 0.8
            }
            y += size * rng.uniform(1.5, 2.2)
        }
        return page
    }

    private static func keyboard(using rng: inout some RandomNumberGenerator) -> SceneImage {
        let key = rng.uniform(18, 30)
        var board = SceneImage(width: Int(key * 15), height: Int(key * 5.5), fill: Float(rng.uniform(15, 50)))
        let keyTone = Float(rng.uniform(150, 230))
        for row in 0..<5 {
            var x = key * 0.25 + Double(row) * key * 0.25
            while x + key < Double(board.width) {
                let y = key * 0.25 + Double(row) * key * 1.05
                board.fillPolygon(rectangle(x, y, x + key * 0.9, y + key * 0.9), value: keyTone)
                board.fillPolygon(
                    rectangle(x + key * 0.3, y + key * 0.25, x + key * 0.45, y + key * 0.55), value: 30)
                x += key
            }
        }
        return board
    }

    private static func pattern(_ width: Int, _ height: Int, _ value: (Double, Double) -> Float) -> SceneImage {
        var image = SceneImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { image[x, y] = value(Double(x) + 0.5, Double(y) + 0.5) }
        }
        return image
    }
}
