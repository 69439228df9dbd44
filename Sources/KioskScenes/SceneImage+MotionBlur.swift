import Foundation

extension SceneImage {
    /// Linear motion blur: each pixel becomes the mean along a `length`-pixel segment at `angle` radians through
    /// it (the pass moving during the exposure), edges extended.
    func motionBlurred(length: Double, angle: Double) -> SceneImage {
        guard length >= 1 else { return self }
        let taps = Int(length.rounded(.up)) + 1
        let step = SIMD2(cos(angle), sin(angle)) * (length / Double(taps - 1))
        let offsets = (0..<taps).map { step * (Double($0) - Double(taps - 1) / 2) }
        let weight = 1 / Float(taps)
        let (w, h) = (width, height)
        var result = SceneImage(width: w, height: h)
        pixels.withUnsafeBufferPointer { source in
            result.pixels.withUnsafeMutableBufferPointer { destination in
                for offset in offsets {
                    for y in 0..<h {
                        let py = Double(y) + 0.5 + offset.y
                        for x in 0..<w {
                            let value = bilinearSample(
                                source, width: w, height: h, x: Double(x) + 0.5 + offset.x, y: py)
                            destination[y * w + x] += value * weight
                        }
                    }
                }
            }
        }
        return result
    }
}
