import Foundation

extension SceneImage {
    /// Gaussian blur (lens softness, defocus), edges extended. A sampled kernel for small `sigma`, three box
    /// passes (within a few percent of a gaussian, and independent of `sigma` in cost) from 1 pixel up.
    func gaussianBlurred(sigma: Double) -> SceneImage {
        guard sigma > 0.15, width > 0, height > 0 else { return self }
        if sigma < 1 {
            let radius = Int((3 * sigma).rounded(.up))
            let weights = (-radius...radius).map { Float(exp(-Double($0 * $0) / (2 * sigma * sigma))) }
            let total = weights.reduce(0, +)
            return separablyConvolved(with: weights.map { $0 / total })
        }
        var result = self
        for radius in Self.boxRadii(approximatingSigma: sigma) {
            result = result.boxBlurred(radius: radius)
        }
        return result
    }

    /// Mean over a `(2 radius + 1)²` square, edges extended: running sums along rows, then down columns.
    func boxBlurred(radius: Int) -> SceneImage {
        guard radius > 0, width > 0, height > 0 else { return self }
        let (w, h) = (width, height)
        let scale = 1 / Float(2 * radius + 1)
        var horizontal = SceneImage(width: w, height: h)
        var result = SceneImage(width: w, height: h)
        pixels.withUnsafeBufferPointer { source in
            horizontal.pixels.withUnsafeMutableBufferPointer { middle in
                for y in 0..<h {
                    let row = y * w
                    var sum: Float = 0
                    for k in -radius...radius { sum += source[row + min(max(k, 0), w - 1)] }
                    for x in 0..<w {
                        middle[row + x] = sum * scale
                        sum += source[row + min(x + radius + 1, w - 1)] - source[row + max(x - radius, 0)]
                    }
                }
            }
        }
        horizontal.pixels.withUnsafeBufferPointer { middle in
            result.pixels.withUnsafeMutableBufferPointer { destination in
                var sums = [Float](repeating: 0, count: w)
                sums.withUnsafeMutableBufferPointer { sum in
                    for k in -radius...radius {
                        let row = min(max(k, 0), h - 1) * w
                        for x in 0..<w { sum[x] += middle[row + x] }
                    }
                    for y in 0..<h {
                        let entering = min(y + radius + 1, h - 1) * w
                        let leaving = max(y - radius, 0) * w
                        for x in 0..<w {
                            destination[y * w + x] = sum[x] * scale
                            sum[x] += middle[entering + x] - middle[leaving + x]
                        }
                    }
                }
            }
        }
        return result
    }

    /// Convolves rows, then columns, with the same odd-length `kernel`, edges extended.
    func separablyConvolved(with kernel: [Float]) -> SceneImage {
        let radius = kernel.count / 2
        let (w, h) = (width, height)
        var horizontal = SceneImage(width: w, height: h)
        var result = SceneImage(width: w, height: h)
        kernel.withUnsafeBufferPointer { taps in
            pixels.withUnsafeBufferPointer { source in
                horizontal.pixels.withUnsafeMutableBufferPointer { middle in
                    for y in 0..<h {
                        let row = y * w
                        for x in 0..<w {
                            var sum: Float = 0
                            for k in 0..<taps.count {
                                sum += taps[k] * source[row + min(max(x + k - radius, 0), w - 1)]
                            }
                            middle[row + x] = sum
                        }
                    }
                }
            }
            horizontal.pixels.withUnsafeBufferPointer { middle in
                result.pixels.withUnsafeMutableBufferPointer { destination in
                    for y in 0..<h {
                        for k in 0..<taps.count {
                            let sourceRow = min(max(y + k - radius, 0), h - 1) * w
                            let tap = taps[k]
                            for x in 0..<w { destination[y * w + x] += tap * middle[sourceRow + x] }
                        }
                    }
                }
            }
        }
        return result
    }

    /// Radii of three successive box blurs whose combined variance is close to `sigma²` (Kovesi's method).
    static func boxRadii(approximatingSigma sigma: Double) -> [Int] {
        let ideal = (4 * sigma * sigma + 1).squareRoot()
        var lower = Int(ideal.rounded(.down))
        if lower % 2 == 0 { lower -= 1 }
        let upper = lower + 2
        let lowerCount = Int(
            ((12 * sigma * sigma - 3 * Double(lower * lower) - 12 * Double(lower) - 9) / (-4 * Double(lower) - 4))
                .rounded())
        return (0..<3).map { $0 < lowerCount ? (lower - 1) / 2 : (upper - 1) / 2 }
    }
}
