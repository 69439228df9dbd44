import Foundation

extension SceneImage {
    /// Sensor noise: gaussian with variance `readNoise² + shotNoise · value` (signal-dependent photon noise on
    /// top of the read-out floor), per pixel.
    mutating func addSensorNoise(readNoise: Float, shotNoise: Float, using rng: inout some RandomNumberGenerator) {
        var fast = SplitMix64(seed: rng.next())
        pixels.withUnsafeMutableBufferPointer { destination in
            for index in destination.indices {
                let value = destination[index]
                let sigma = (readNoise * readNoise + shotNoise * max(value, 0)).squareRoot()
                destination[index] = value + sigma * Float(fast.gaussian())
            }
        }
    }

    /// Adds `amount × noise(x, y)` for smooth noise in -1...1 with features about `cell` pixels across.
    mutating func addSmoothNoise(amount: Float, cell: Double, using rng: inout some RandomNumberGenerator) {
        let noise = ValueNoise(width: Double(width), height: Double(height), cell: cell, using: &rng)
        let w = width
        pixels.withUnsafeMutableBufferPointer { destination in
            for y in 0..<height {
                for x in 0..<w {
                    destination[y * w + x] += amount * Float(noise.value(x: Double(x) + 0.5, y: Double(y) + 0.5))
                }
            }
        }
    }
}

/// Smooth random field in -1...1 (value noise: random values on a grid, interpolated with smoothstep), for
/// paper texture, crumpling and uneven light.
struct ValueNoise: Sendable {
    private let columns: Int
    private let cell: Double
    private let grid: [Double]

    init(width: Double, height: Double, cell: Double, using rng: inout some RandomNumberGenerator) {
        self.cell = max(cell, 1e-3)
        columns = Int(width / self.cell) + 3
        let rows = Int(height / self.cell) + 3
        grid = (0..<(columns * rows)).map { _ in rng.uniform(-1, 1) }
    }

    /// The field at `(x, y)`; points outside the area it was made for are clamped to it.
    func value(x: Double, y: Double) -> Double {
        let rows = grid.count / columns
        let gx = min(max(x / cell, 0), Double(columns - 2) - 1e-9)
        let gy = min(max(y / cell, 0), Double(rows - 2) - 1e-9)
        let (ix, iy) = (Int(gx), Int(gy))
        let tx = smoothstep(gx - Double(ix))
        let ty = smoothstep(gy - Double(iy))
        let top = grid[iy * columns + ix] * (1 - tx) + grid[iy * columns + ix + 1] * tx
        let bottom = grid[(iy + 1) * columns + ix] * (1 - tx) + grid[(iy + 1) * columns + ix + 1] * tx
        return top * (1 - ty) + bottom * ty
    }

    private func smoothstep(_ t: Double) -> Double { t * t * (3 - 2 * t) }
}
