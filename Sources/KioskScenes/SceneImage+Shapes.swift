import Foundation

extension SceneImage {
    /// Blends `value` in with `opacity × coverage(pixel centre)` over the pixels of `box`; `coverage` returns
    /// 0...1 (fractional at edges for anti-aliasing).
    mutating func paint(value: Float, opacity: Float = 1, over box: PixelBox, coverage: (Double, Double) -> Double) {
        let w = width
        pixels.withUnsafeMutableBufferPointer { destination in
            for y in box.minY..<box.maxY {
                for x in box.minX..<box.maxX {
                    let covered = coverage(Double(x) + 0.5, Double(y) + 0.5)
                    guard covered > 0 else { continue }
                    let index = y * w + x
                    destination[index] += (value - destination[index]) * opacity * Float(min(covered, 1))
                }
            }
        }
    }

    /// Fills a convex polygon (corners in either winding order), anti-aliased.
    mutating func fillPolygon(_ corners: [SIMD2<Double>], value: Float, opacity: Float = 1) {
        guard corners.count >= 3, let box = PixelBox(enclosing: corners, margin: 1, clippedTo: width, height) else {
            return
        }
        let next = Array(corners.dropFirst()) + [corners[0]]
        let area = zip(corners, next).reduce(0.0) { $0 + $1.0.x * $1.1.y - $1.1.x * $1.0.y }
        let winding: Double = area >= 0 ? 1 : -1
        // Each edge as a line a·x + b·y + c: the distance inside it, in pixels.
        var lines = [Double]()
        for (from, to) in zip(corners, next) {
            let along = to - from
            let length = max((along * along).sum().squareRoot(), 1e-9)
            let (a, b) = (-along.y * winding / length, along.x * winding / length)
            lines += [a, b, -(a * from.x + b * from.y)]
        }
        let w = width
        lines.withUnsafeBufferPointer { line in
            pixels.withUnsafeMutableBufferPointer { destination in
                for y in box.minY..<box.maxY {
                    let py = Double(y) + 0.5
                    // Pixels whose centre is at least half a pixel inside every edge are fully covered.
                    var (solidFrom, solidTo) = (-Double.infinity, Double.infinity)
                    for edge in stride(from: 0, to: line.count, by: 3) {
                        let (a, rest) = (line[edge], line[edge + 1] * py + line[edge + 2])
                        if a > 1e-12 {
                            solidFrom = max(solidFrom, (0.5 - rest) / a)
                        } else if a < -1e-12 {
                            solidTo = min(solidTo, (0.5 - rest) / a)
                        } else if rest < 0.5 {
                            (solidFrom, solidTo) = (1, 0)
                        }
                    }
                    for x in box.minX..<box.maxX {
                        let px = Double(x) + 0.5
                        let index = y * w + x
                        if px >= solidFrom && px <= solidTo {
                            destination[index] += (value - destination[index]) * opacity
                            continue
                        }
                        var inside = Double.infinity
                        for edge in stride(from: 0, to: line.count, by: 3) {
                            inside = min(inside, line[edge] * px + line[edge + 1] * py + line[edge + 2])
                        }
                        guard inside > -0.5 else { continue }
                        destination[index] += (value - destination[index]) * opacity * Float(min(inside + 0.5, 1))
                    }
                }
            }
        }
    }

    /// Fills an ellipse with semi-axes `radii`, turned by `angle` radians; `softness` pixels of edge blur.
    mutating func fillEllipse(
        center: SIMD2<Double>, radii: SIMD2<Double>, angle: Double = 0, value: Float, opacity: Float = 1,
        softness: Double = 1
    ) {
        let reach = max(radii.x, radii.y) + softness
        guard let box = PixelBox(enclosing: [center - reach, center + reach], margin: 1, clippedTo: width, height)
        else { return }
        let (c, s) = (cos(angle), sin(angle))
        let smaller = min(radii.x, radii.y)
        let (cx, cy, rx, ry) = (center.x, center.y, radii.x, radii.y)
        let edge = max(softness, 1e-3)
        paint(value: value, opacity: opacity, over: box) { px, py in
            let (dx, dy) = (px - cx, py - cy)
            let (u, v) = ((dx * c + dy * s) / rx, (-dx * s + dy * c) / ry)
            let distance = ((u * u + v * v).squareRoot() - 1) * smaller  // roughly pixels outside the rim
            return 0.5 - distance / edge
        }
    }

    /// Fills a capsule (a thick segment with round ends): a finger, an arm, a cable.
    mutating func fillCapsule(
        from start: SIMD2<Double>, to end: SIMD2<Double>, radius: Double, value: Float, opacity: Float = 1
    ) {
        guard
            let box = PixelBox(
                enclosing: [start - radius, start + radius, end - radius, end + radius], margin: 1,
                clippedTo: width, height)
        else { return }
        let (sx, sy, ax, ay) = (start.x, start.y, end.x - start.x, end.y - start.y)
        let lengthSquared = max(ax * ax + ay * ay, 1e-9)
        paint(value: value, opacity: opacity, over: box) { px, py in
            let t = min(max(((px - sx) * ax + (py - sy) * ay) / lengthSquared, 0), 1)
            let (dx, dy) = (px - sx - ax * t, py - sy - ay * t)
            return radius + 0.5 - (dx * dx + dy * dy).squareRoot()
        }
    }

    /// Adds a gaussian blob (`peak` at the centre, standard deviations `radii` along its turned axes), weighted
    /// by `mask` where given: a light's reflection on glass.
    mutating func addBlob(
        center: SIMD2<Double>, radii: SIMD2<Double>, angle: Double, peak: Float, mask: SceneImage? = nil
    ) {
        let reach = 3 * max(radii.x, radii.y)
        guard let box = PixelBox(enclosing: [center - reach, center + reach], margin: 1, clippedTo: width, height)
        else { return }
        let (c, s) = (cos(angle), sin(angle))
        let (cx, cy, rx, ry) = (center.x, center.y, radii.x, radii.y)
        let w = width
        let weights = mask?.pixels ?? []
        weights.withUnsafeBufferPointer { weight in
            pixels.withUnsafeMutableBufferPointer { destination in
                for y in box.minY..<box.maxY {
                    let dy = Double(y) + 0.5 - cy
                    for x in box.minX..<box.maxX {
                        let dx = Double(x) + 0.5 - cx
                        let (u, v) = ((dx * c + dy * s) / rx, (-dx * s + dy * c) / ry)
                        let index = y * w + x
                        let masked = weight.isEmpty ? 1 : weight[index]
                        destination[index] += peak * masked * Float(exp(-0.5 * (u * u + v * v)))
                    }
                }
            }
        }
    }
}
