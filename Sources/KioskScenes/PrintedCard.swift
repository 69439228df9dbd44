/// A pass printed on a paper card: the code with its quiet zone, a margin to hold it by, a few lines of text
/// under it, and paper texture. Coordinates are card pixels.
struct PrintedCard: Sendable {
    var image: SceneImage
    var pixelsPerModule: Double
    /// The code's top-left corner (inside the quiet zone) and side, in card pixels.
    var codeOrigin: SIMD2<Double>
    var codeSide: Double

    var size: SIMD2<Double> { SIMD2(Double(image.width), Double(image.height)) }

    /// The margin between the card's edge and the quiet zone, in card pixels: where fingers can hold it.
    var gripMargin: Double { 2 * pixelsPerModule }

    init(
        code: PassCode, pixelsPerModule: Double, ink: Float, paper: Float,
        using rng: inout some RandomNumberGenerator
    ) {
        let quietZone = 4.0
        let artwork = code.rendered(pixelsPerModule: pixelsPerModule, quietZone: quietZone, dark: ink, light: paper)
        let margin = Int((2 * pixelsPerModule).rounded())
        let textHeight = Int((8 * pixelsPerModule).rounded())
        image = SceneImage(
            width: artwork.width + 2 * margin, height: artwork.height + 2 * margin + textHeight, fill: paper)
        self.pixelsPerModule = pixelsPerModule
        codeOrigin = SIMD2(repeating: Double(margin) + quietZone * pixelsPerModule)
        codeSide = Double(code.moduleCount) * pixelsPerModule
        image.place(artwork, at: margin, margin)
        drawTextLines(top: Double(margin + artwork.height), value: paper + (ink - paper) * 0.6, using: &rng)
        image.addSmoothNoise(amount: 4, cell: 12 * pixelsPerModule, using: &rng)
        var fibres = SceneImage(width: image.width, height: image.height)
        fibres.addSensorNoise(readNoise: 3, shotNoise: 0, using: &rng)
        fibres = fibres.gaussianBlurred(sigma: 0.8)
        image.add(fibres)
    }

    /// Three lines of "words" (dark bars) below the code: the event name, the guest, the date.
    private mutating func drawTextLines(top: Double, value: Float, using rng: inout some RandomNumberGenerator) {
        let module = pixelsPerModule
        let left = codeOrigin.x - 2 * module
        let right = Double(image.width) - left
        for line in 0..<3 {
            let y = top + (0.5 + 2.2 * Double(line)) * module
            let height = (line == 0 ? 1.3 : 0.9) * module
            var x = left
            while true {
                let word = rng.uniform(1.5, 5) * module
                guard x + word < right else { break }
                image.fillPolygon(
                    [SIMD2(x, y), SIMD2(x + word, y), SIMD2(x + word, y + height), SIMD2(x, y + height)], value: value)
                x += word + 0.8 * module
            }
        }
    }
}
