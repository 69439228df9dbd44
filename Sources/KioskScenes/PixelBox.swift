/// A half-open rectangle of pixels.
struct PixelBox: Sendable, Equatable {
    var minX: Int
    var minY: Int
    var maxX: Int
    var maxY: Int

    /// The pixels around `points` (plus `margin`), clipped to a `width` × `height` image; nil when empty.
    init?(enclosing points: [SIMD2<Double>], margin: Double, clippedTo width: Int, _ height: Int) {
        let xs = points.map(\.x)
        let ys = points.map(\.y)
        let limit = 1e6
        minX = max(Int(max(xs.min()! - margin, -limit).rounded(.down)), 0)
        minY = max(Int(max(ys.min()! - margin, -limit).rounded(.down)), 0)
        maxX = min(Int(min(xs.max()! + margin, limit).rounded(.up)), width)
        maxY = min(Int(min(ys.max()! + margin, limit).rounded(.up)), height)
        guard minX < maxX, minY < maxY else { return nil }
    }
}

/// The corners of an axis-aligned rectangle, clockwise from top left.
func rectangle(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double) -> [SIMD2<Double>] {
    [SIMD2(minX, minY), SIMD2(maxX, minY), SIMD2(maxX, maxY), SIMD2(minX, maxY)]
}
