import KioskCore

extension GrayFrame {
    /// The grey at `point` (pixel centres at half-integers), interpolated between the four nearest pixels; the
    /// edge pixels' beyond the frame, the nearest corner's where a coordinate is not a finite number (a map's point
    /// at infinity).
    func bilinear(at point: SIMD2<Double>) -> Double {
        guard point.x.isFinite, point.y.isFinite else {
            let x = point.x > 0 ? width - 1 : 0
            let y = point.y > 0 ? height - 1 : 0
            return Double(pixels[y * width + x])
        }
        let x = min(max(point.x - 0.5, 0), Double(width - 1))
        let y = min(max(point.y - 0.5, 0), Double(height - 1))
        let (x0, y0) = (Int(x), Int(y))
        let (x1, y1) = (min(x0 + 1, width - 1), min(y0 + 1, height - 1))
        let (fx, fy) = (x - Double(x0), y - Double(y0))
        let top = Double(pixels[y0 * width + x0]) * (1 - fx) + Double(pixels[y0 * width + x1]) * fx
        let bottom = Double(pixels[y1 * width + x0]) * (1 - fx) + Double(pixels[y1 * width + x1]) * fx
        return top * (1 - fy) + bottom * fy
    }
}
