/// Bilinear interpolation at a continuous position (pixel centres at `+0.5`), clamping to the nearest edge pixel
/// outside the image. Free function over a buffer so the hot loops stay fast in debug builds.
@inline(__always)
func bilinearSample(
    _ source: UnsafeBufferPointer<Float>, width: Int, height: Int, x: Double, y: Double
) -> Float {
    let fx = min(max(x - 0.5, -1), Double(width))
    let fy = min(max(y - 0.5, -1), Double(height))
    let floorX = fx.rounded(.down)
    let floorY = fy.rounded(.down)
    let tx = Float(fx - floorX)
    let ty = Float(fy - floorY)
    let x0 = min(max(Int(floorX), 0), width - 1)
    let x1 = min(max(Int(floorX) + 1, 0), width - 1)
    let y0 = min(max(Int(floorY), 0), height - 1)
    let y1 = min(max(Int(floorY) + 1, 0), height - 1)
    let topLeft = source[y0 * width + x0]
    let topRight = source[y0 * width + x1]
    let bottomLeft = source[y1 * width + x0]
    let bottomRight = source[y1 * width + x1]
    let top = topLeft + (topRight - topLeft) * tx
    let bottom = bottomLeft + (bottomRight - bottomLeft) * tx
    return top + (bottom - top) * ty
}

extension SceneImage {
    /// Bilinear sample at a continuous position; see `bilinearSample`.
    func sample(x: Double, y: Double) -> Float {
        pixels.withUnsafeBufferPointer { bilinearSample($0, width: width, height: height, x: x, y: y) }
    }
}
