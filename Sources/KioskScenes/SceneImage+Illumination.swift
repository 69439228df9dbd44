import Foundation

extension SceneImage {
    /// Multiplies every sample by `gain` (exposure: below 1 is dim, above 1 overexposed).
    mutating func scale(by gain: Float) {
        map { $0 * gain }
    }

    /// Darkens towards the corners by up to `strength` (0...1), as a cheap webcam lens does.
    mutating func applyVignetting(strength: Double) {
        let (cx, cy) = (Double(width) / 2, Double(height) / 2)
        let farthest = cx * cx + cy * cy
        multiply { x, y in
            Float(1 - strength * ((x - cx) * (x - cx) + (y - cy) * (y - cy)) / farthest)
        }
    }

    /// A soft-edged shadow: the side of the line through `point` facing `direction` (radians) is darkened to
    /// `1 - depth` of its brightness, ramping over `softness` pixels.
    mutating func applyShadow(through point: SIMD2<Double>, direction: Double, depth: Double, softness: Double) {
        let (nx, ny) = (cos(direction), sin(direction))
        let edge = max(softness, 1e-3)
        multiply { x, y in
            let distance = ((x - point.x) * nx + (y - point.y) * ny) / edge
            let shade = 0.5 + 0.5 * tanh(distance)
            return Float(1 - depth * shade)
        }
    }

    /// Light falling off linearly across the frame: `1 + amount` on the side `direction` points to, `1 - amount`
    /// on the opposite side.
    mutating func applyLightGradient(direction: Double, amount: Double) {
        let (nx, ny) = (cos(direction), sin(direction))
        let (cx, cy) = (Double(width) / 2, Double(height) / 2)
        let reach = (cx * cx + cy * cy).squareRoot()
        multiply { x, y in Float(1 + amount * ((x - cx) * nx + (y - cy) * ny) / reach) }
    }

    /// Light above the sensor's full scale spilling into its neighbours (blooming): the excess over `threshold`
    /// is blurred by `sigma` and added back, `strength` times.
    mutating func applyBloom(threshold: Float, strength: Float, sigma: Double) {
        var excess = self
        excess.map { max($0 - threshold, 0) }
        let halo = excess.gaussianBlurred(sigma: sigma)
        pixels.withUnsafeMutableBufferPointer { destination in
            halo.pixels.withUnsafeBufferPointer { spill in
                for index in destination.indices { destination[index] += strength * spill[index] }
            }
        }
    }

    /// Multiplies each pixel by `factor(x, y)` of its centre.
    mutating func multiply(by factor: (Double, Double) -> Float) {
        let w = width
        pixels.withUnsafeMutableBufferPointer { destination in
            for y in 0..<height {
                for x in 0..<w {
                    destination[y * w + x] *= factor(Double(x) + 0.5, Double(y) + 0.5)
                }
            }
        }
    }
}
