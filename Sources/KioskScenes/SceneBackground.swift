/// What a door camera sees behind the pass: a lobby out of focus (walls, a door frame, people, ceiling lights,
/// signs with text, cables).
enum SceneBackground {
    static func cluttered(width: Int, height: Int, using rng: inout some RandomNumberGenerator) -> SceneImage {
        let (w, h) = (Double(width), Double(height))
        let top = Float(rng.uniform(90, 190))
        let bottom = Float(rng.uniform(40, 150))
        var scene = SceneImage(
            width: width, height: height,
            pixels: (0..<height).flatMap { y in
                repeatElement(top + (bottom - top) * Float(y) / Float(max(height - 1, 1)), count: width)
            })
        scene.addSmoothNoise(amount: 15, cell: w / 5, using: &rng)
        for _ in 0..<(2 + rng.index(below: 3)) {  // walls, door frame, furniture
            let x = rng.uniform(-0.2, 0.9) * w
            let y = rng.uniform(-0.2, 0.7) * h
            let size = SIMD2(rng.uniform(0.1, 0.6) * w, rng.uniform(0.2, 1.2) * h)
            let skew = rng.uniform(-0.05, 0.05) * w
            scene.fillPolygon(
                [SIMD2(x, y), SIMD2(x + size.x, y + skew), SIMD2(x + size.x, y + size.y + skew), SIMD2(x, y + size.y)],
                value: Float(rng.uniform(30, 220)))
        }
        for _ in 0..<(1 + rng.index(below: 3)) {  // people further back
            let center = SIMD2(rng.uniform(0, w), rng.uniform(0.2, 0.6) * h)
            let headSize = rng.uniform(0.04, 0.09) * h
            let tone = Float(rng.uniform(20, 140))
            scene.fillEllipse(
                center: center + SIMD2(0, 3.5 * headSize), radii: SIMD2(2.2, 3) * headSize, value: tone * 0.8,
                softness: 2)
            scene.fillEllipse(center: center, radii: SIMD2(0.8, 1) * headSize, value: tone, softness: 2)
        }
        for _ in 0..<rng.index(below: 3) {  // ceiling lights
            let center = SIMD2(rng.uniform(0, w), rng.uniform(0, 0.2) * h)
            scene.fillEllipse(
                center: center, radii: SIMD2(rng.uniform(20, 60), rng.uniform(4, 10)), value: 300, softness: 3)
        }
        if rng.coinFlip(probability: 0.7) { drawSign(into: &scene, using: &rng) }
        for _ in 0..<(2 + rng.index(below: 4)) {  // cables and edges
            scene.fillCapsule(
                from: SIMD2(rng.uniform(0, w), rng.uniform(0, h)), to: SIMD2(rng.uniform(0, w), rng.uniform(0, h)),
                radius: rng.uniform(0.5, 2.5), value: Float(rng.uniform(10, 240)))
        }
        return scene.gaussianBlurred(sigma: rng.uniform(1.2, 2.5))
    }

    /// A poster with rows of words: fine dark-on-light texture a decoder must not mistake for a code.
    private static func drawSign(into scene: inout SceneImage, using rng: inout some RandomNumberGenerator) {
        let (w, h) = (Double(scene.width), Double(scene.height))
        let origin = SIMD2(rng.uniform(0, 0.7) * w, rng.uniform(0, 0.6) * h)
        let size = SIMD2(rng.uniform(0.15, 0.3) * w, rng.uniform(0.15, 0.35) * h)
        scene.fillPolygon(rectangle(origin.x, origin.y, origin.x + size.x, origin.y + size.y), value: 225)
        let lineHeight = rng.uniform(4, 9)
        var y = origin.y + lineHeight
        while y + lineHeight < origin.y + size.y - lineHeight {
            var x = origin.x + lineHeight
            while true {
                let word = rng.uniform(2, 7) * lineHeight
                guard x + word < origin.x + size.x - lineHeight else { break }
                scene.fillPolygon(rectangle(x, y, x + word, y + 0.7 * lineHeight), value: 40)
                x += word + lineHeight
            }
            y += 1.8 * lineHeight
        }
    }
}
