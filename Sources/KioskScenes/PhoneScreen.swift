/// A phone showing a pass: a backlit screen made of pixels, each of three vertical red, green and blue stripes
/// separated by a dark grid, inside a glossy black bezel with rounded corners. Coordinates are phone pixels
/// (one per screen pixel), origin at the phone's top-left corner.
///
/// Photographed close up, the screen's pixel pitch lands near the camera's, and the camera samples the stripes
/// and the grid below their frequency: the beat shows as moire bands across the code.
struct PhoneScreen: Sendable {
    /// What the screen shows, one emitted brightness per screen pixel.
    var content: SceneImage
    var screenPixelsPerModule: Double
    /// The code's top-left corner and side, in phone pixels.
    var codeOrigin: SIMD2<Double>
    var codeSide: Double
    /// Bezel width at the sides and at the top and bottom, in phone pixels.
    var bezel: SIMD2<Double>
    /// How unlike each other the three stripes of a pixel look to a grey sensor (0 flat ... 1 full RGB stripes).
    var subpixelContrast: Double = 0.6
    /// Fraction of each pixel's height that is the dark grid between rows.
    var rowGap: Double = 0.25
    /// What an unlit pixel and the bezel look like (ambient light reflected by the glass).
    var blackLevel: Float = 16
    var bezelValue: Float = 24

    var size: SIMD2<Double> { SIMD2(Double(content.width), Double(content.height)) + 2 * bezel }
    var cornerRadius: Double { 0.09 * size.x }

    /// A pass app screen: status bar, title, the code on its card, and text under it. `darkMode` shows light
    /// modules on a dark screen.
    init(code: PassCode, screenPixelsPerModule: Double, darkMode: Bool, using rng: inout some RandomNumberGenerator) {
        let module = screenPixelsPerModule
        let (dark, light): (Float, Float) = darkMode ? (12, 225) : (12, 245)
        let artwork = code.rendered(
            pixelsPerModule: module, quietZone: 4, dark: darkMode ? light : dark, light: darkMode ? dark : light)
        let side = Double(artwork.width)
        let width = Int((side + 5 * module).rounded())
        let height = Int((Double(width) * rng.uniform(1.9, 2.1)).rounded())
        let background: Float = darkMode ? 20 : 238
        var screen = SceneImage(width: width, height: height, fill: background)
        let codeTop = Int(Double(height) * 0.3)
        let codeLeft = (width - artwork.width) / 2
        screen.place(artwork, at: codeLeft, codeTop)
        let text: Float = darkMode ? 150 : 90
        let w = Double(width)
        screen.fillPolygon(rectangle(0, 0, w, 0.035 * Double(height)), value: darkMode ? 0 : 200)
        screen.fillPolygon(
            rectangle(0.12 * w, Double(codeTop) - 6 * module, 0.88 * w, Double(codeTop) - 3.5 * module), value: text)
        for line in 0..<3 {
            let top = Double(codeTop + artwork.height) + (2 + 2.5 * Double(line)) * module
            screen.fillPolygon(rectangle(0.15 * w, top, rng.uniform(0.5, 0.85) * w, top + 1.2 * module), value: text)
        }
        content = screen
        self.screenPixelsPerModule = module
        bezel = SIMD2(rng.uniform(0.04, 0.06), rng.uniform(0.09, 0.12)) * w
        codeOrigin = bezel + SIMD2(Double(codeLeft), Double(codeTop)) + 4 * module
        codeSide = Double(code.moduleCount) * module
    }

    /// Paints the phone through `mapping` (phone pixels → frame), averaging `supersampling²` point samples per
    /// frame pixel as the sensor integrates over its area (which is what lets the pixel grid alias into moire).
    /// Records the phone's footprint in `coverage` when that has the canvas's size.
    func draw(
        into canvas: inout SceneImage, through mapping: Homography, supersampling: Int, coverage: inout SceneImage
    ) {
        let phoneSize = size
        guard let box = canvas.pixelBox(covering: mapping, objectSize: phoneSize) else { return }
        let inverse = mapping.inverse.matrix
        let (h0, h1, h2, h3, h4, h5, h6, h7, h8) = (
            inverse[0], inverse[1], inverse[2], inverse[3], inverse[4], inverse[5], inverse[6], inverse[7], inverse[8]
        )
        let stripeWeights = [0.9, 1.77, 0.33].map { 1 + subpixelContrast * ($0 - 1) }
        let rowLit = 1 - rowGap
        let normalisation = 1 / (rowLit + rowGap * 0.15)
        let (contentWidth, contentHeight) = (content.width, content.height)
        let (radius, bezel, black, bezelValue) = (cornerRadius, bezel, Double(blackLevel), Double(bezelValue))
        let samples = max(supersampling, 1)
        let canvasWidth = canvas.width
        let recordsCoverage = coverage.width == canvas.width && coverage.height == canvas.height
        content.pixels.withUnsafeBufferPointer { screen in
            canvas.pixels.withUnsafeMutableBufferPointer { destination in
                for y in box.minY..<box.maxY {
                    for x in box.minX..<box.maxX {
                        var sum = 0.0
                        var inside = 0
                        for sy in 0..<samples {
                            let py = Double(y) + (Double(sy) + 0.5) / Double(samples)
                            for sx in 0..<samples {
                                let px = Double(x) + (Double(sx) + 0.5) / Double(samples)
                                let w = h6 * px + h7 * py + h8
                                guard w > 1e-9 else { continue }
                                let u = (h0 * px + h1 * py + h2) / w
                                let v = (h3 * px + h4 * py + h5) / w
                                let cornerX = max(radius - u, 0, u - (phoneSize.x - radius))
                                let cornerY = max(radius - v, 0, v - (phoneSize.y - radius))
                                guard u >= 0, v >= 0, u < phoneSize.x, v < phoneSize.y,
                                    cornerX * cornerX + cornerY * cornerY <= radius * radius
                                else { continue }
                                inside += 1
                                let su = u - bezel.x
                                let sv = v - bezel.y
                                guard su >= 0, sv >= 0, su < Double(contentWidth), sv < Double(contentHeight) else {
                                    sum += bezelValue
                                    continue
                                }
                                let column = Int(su)
                                let row = Int(sv)
                                let emitted = Double(screen[row * contentWidth + column])
                                let stripe = stripeWeights[min(Int((su - Double(column)) * 3), 2)]
                                let lit = sv - Double(row) < rowLit ? 1.0 : 0.15
                                sum += black + max(emitted - black, 0) * stripe * lit * normalisation
                            }
                        }
                        guard inside > 0 else { continue }
                        let opacity = Double(inside) / Double(samples * samples)
                        let index = y * canvasWidth + x
                        let painted = Double(destination[index]) * (1 - opacity) + sum / Double(samples * samples)
                        destination[index] = Float(painted)
                        if recordsCoverage { coverage.pixels[index] = max(coverage.pixels[index], Float(opacity)) }
                    }
                }
            }
        }
    }
}
