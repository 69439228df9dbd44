import Foundation

extension SceneImage {
    /// Paints `layer` over this image through `mapping` (layer coordinates → these), sampling bilinearly, with
    /// anti-aliased edges. `alpha`, the same size as `layer` with values 0...1, makes parts of it transparent.
    /// Where the layer lands is recorded (as the largest opacity so far) in `coverage` when that has this
    /// image's size.
    ///
    /// Shrinking by a large factor aliases; blur the layer first (`prefiltered(forScale:)`).
    mutating func paint(
        _ layer: SceneImage, alpha: SceneImage? = nil, through mapping: Homography, coverage: inout SceneImage
    ) {
        let layerSize = SIMD2(Double(layer.width), Double(layer.height))
        guard let box = pixelBox(covering: mapping, objectSize: layerSize) else { return }
        let edgeScale = mapping.localScale(at: layerSize / 2)
        let inverse = mapping.inverse.matrix
        let (h0, h1, h2, h3, h4, h5, h6, h7, h8) = (
            inverse[0], inverse[1], inverse[2], inverse[3], inverse[4], inverse[5], inverse[6], inverse[7], inverse[8]
        )
        let (lw, lh) = (layer.width, layer.height)
        let recordsCoverage = coverage.width == width && coverage.height == height
        let alphaPixels = alpha?.pixels ?? []
        let canvasWidth = width
        layer.pixels.withUnsafeBufferPointer { source in
            alphaPixels.withUnsafeBufferPointer { alphaSource in
                pixels.withUnsafeMutableBufferPointer { destination in
                    coverage.pixels.withUnsafeMutableBufferPointer { covered in
                        for y in box.minY..<box.maxY {
                            let py = Double(y) + 0.5
                            for x in box.minX..<box.maxX {
                                let px = Double(x) + 0.5
                                let w = h6 * px + h7 * py + h8
                                guard w > 1e-9 else { continue }
                                let u = (h0 * px + h1 * py + h2) / w
                                let v = (h3 * px + h4 * py + h5) / w
                                let inside = min(u, Double(lw) - u, v, Double(lh) - v) * edgeScale + 0.5
                                guard inside > 0 else { continue }
                                var opacity = Float(min(inside, 1))
                                if !alphaSource.isEmpty {
                                    opacity *= bilinearSample(alphaSource, width: lw, height: lh, x: u, y: v)
                                }
                                let value = bilinearSample(source, width: lw, height: lh, x: u, y: v)
                                let index = y * canvasWidth + x
                                destination[index] += (value - destination[index]) * opacity
                                if recordsCoverage { covered[index] = max(covered[index], opacity) }
                            }
                        }
                    }
                }
            }
        }
    }

    /// `paint(_:alpha:through:coverage:)` without recording coverage.
    mutating func paint(_ layer: SceneImage, alpha: SceneImage? = nil, through mapping: Homography) {
        var none = SceneImage(width: 0, height: 0)
        paint(layer, alpha: alpha, through: mapping, coverage: &none)
    }

    /// This image blurred just enough that shrinking it by `scale` (frame pixels per layer pixel) averages
    /// over each frame pixel's area instead of aliasing.
    func prefiltered(forScale scale: Double) -> SceneImage {
        scale < 0.9 ? gaussianBlurred(sigma: 0.3 / scale) : self
    }

    /// The frame pixels (clipped to this image) that a `objectSize` rectangle covers once mapped, with a pixel
    /// to spare for the anti-aliased edge.
    func pixelBox(covering mapping: Homography, objectSize size: SIMD2<Double>) -> PixelBox? {
        let corners = [SIMD2(0, 0), SIMD2(size.x, 0), size, SIMD2(0, size.y)].map(mapping.map)
        guard corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        return PixelBox(enclosing: corners, margin: 1, clippedTo: width, height)
    }
}
