import GrayImage
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
        // The four indices are inside the frame by the clamps above: read unchecked (the timing patterns, quiet zones
        // and grids sample hundreds of points for every pair of marks).
        return pixels.withUnsafeBufferPointer { pixels in
            let (row0, row1) = (y0 &* width, y1 &* width)
            let top = Double(pixels[row0 &+ x0]) * (1 - fx) + Double(pixels[row0 &+ x1]) * fx
            let bottom = Double(pixels[row1 &+ x0]) * (1 - fx) + Double(pixels[row1 &+ x1]) * fx
            return top * (1 - fy) + bottom * fy
        }
    }
}
