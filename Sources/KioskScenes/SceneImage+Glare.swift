import Foundation

extension SceneImage {
    /// A specular highlight of a lamp on glass or laminate: a saturating core with a wide halo, only where
    /// `mask` (0...1, this image's size) says the glossy surface is.
    mutating func addGlare(center: SIMD2<Double>, radius: Double, angle: Double, peak: Float, mask: SceneImage) {
        addBlob(center: center, radii: SIMD2(radius, 0.6 * radius), angle: angle, peak: peak, mask: mask)
        addBlob(center: center, radii: SIMD2(2.5, 1.8) * radius, angle: angle, peak: 0.25 * peak, mask: mask)
    }

    /// A faint mirror image on the glass: the room's bright shapes (a ceiling light strip, the guest's
    /// silhouette against a window) blurred far out of focus and added at `amount`, only where `mask` is.
    mutating func addReflection(amount: Float, mask: SceneImage, using rng: inout some RandomNumberGenerator) {
        var reflected = SceneImage(width: width, height: height)
        let (w, h) = (Double(width), Double(height))
        if rng.coinFlip() {
            let start = SIMD2(rng.uniform(0, w), rng.uniform(0, h))
            let end = start + SIMD2(rng.uniform(-1, 1), rng.uniform(-1, 1)) * w * 0.6
            reflected.fillCapsule(from: start, to: end, radius: rng.uniform(0.02, 0.05) * w, value: 255)
        } else {
            let head = SIMD2(rng.uniform(0.2, 0.8) * w, rng.uniform(0.1, 0.5) * h)
            reflected.fillPolygon(rectangle(0, 0, w, h), value: 255)
            reflected.fillEllipse(center: head, radii: SIMD2(0.09, 0.12) * w, value: 0, softness: 4)
            reflected.fillEllipse(
                center: head + SIMD2(0, 0.35 * w), radii: SIMD2(0.3, 0.25) * w, value: 0, softness: 4)
        }
        reflected = reflected.gaussianBlurred(sigma: 0.02 * w)
        reflected.pixels.withUnsafeMutableBufferPointer { light in
            mask.pixels.withUnsafeBufferPointer { glass in
                for index in light.indices { light[index] *= amount / 255 * glass[index] }
            }
        }
        add(reflected)
    }
}
