import KioskCore

extension ImagePreprocessing {
    /// Local contrast normalisation: each pixel becomes `128 + 96 × (p − mean) / max(σ, 5)`, clamped,
    /// where mean and standard deviation σ are taken over the `(2r+1)²` window around it (clipped at the
    /// borders), from integral images of `p` and `p²`.
    ///
    /// Slow light changes (shadow, a bright gradient, glare that has not saturated) vanish with the mean;
    /// weak contrast (a dim or overexposed code) is stretched by 1/σ. The floor on σ keeps flat areas from
    /// turning sensor noise into texture. The default radius is 1/8 of the shorter side (at least 8,
    /// at most 127), wider than the biggest all-dark or all-light area of a code that fills the frame.
    public static func contrastNormalized(_ frame: GrayFrame, radius: Int? = nil) -> GrayFrame {
        guard !frame.isEmpty else { return frame }
        let width = frame.width
        let height = frame.height
        // At most 255² pixels per window, so window sums of p² fit in UInt32 (wrapping differences are exact).
        let r = min(max(radius ?? min(width, height) / 8, 1), 127)
        let stride = width + 1
        var sums = [UInt32](repeating: 0, count: stride * (height + 1))
        var squares = [UInt32](repeating: 0, count: stride * (height + 1))
        var pixels = [UInt8](repeating: 0, count: width * height)

        // Window bounds per column and per row, clipped once instead of per pixel.
        let left = (0..<width).map { max($0 - r, 0) }
        let right = (0..<width).map { min($0 + r + 1, width) }

        frame.pixels.withUnsafeBufferPointer { input in
            sums.withUnsafeMutableBufferPointer { sum in
                squares.withUnsafeMutableBufferPointer { square in
                    for y in 0..<height {
                        var rowSum: UInt32 = 0
                        var rowSquare: UInt32 = 0
                        let above = y * stride
                        let here = above + stride
                        let row = y * width
                        for x in 0..<width {
                            let p = UInt32(input[row + x])
                            rowSum &+= p
                            rowSquare &+= p &* p
                            sum[here + x + 1] = sum[above + x + 1] &+ rowSum
                            square[here + x + 1] = square[above + x + 1] &+ rowSquare
                        }
                    }
                    pixels.withUnsafeMutableBufferPointer { output in
                        left.withUnsafeBufferPointer { left in
                            right.withUnsafeBufferPointer { right in
                                for y in 0..<height {
                                    let top = max(y - r, 0) * stride
                                    let bottom = min(y + r + 1, height) * stride
                                    let rows = Float(bottom - top) / Float(stride)
                                    let row = y * width
                                    for x in 0..<width {
                                        let x0 = left[x]
                                        let x1 = right[x]
                                        let boxSum =
                                            sum[bottom + x1] &- sum[bottom + x0] &- sum[top + x1] &+ sum[top + x0]
                                        let boxSquare =
                                            square[bottom + x1] &- square[bottom + x0] &- square[top + x1]
                                            &+ square[top + x0]
                                        let inverseArea = 1 / (rows * Float(x1 - x0))
                                        let mean = Float(boxSum) * inverseArea
                                        let variance = Float(boxSquare) * inverseArea - mean * mean
                                        let deviation = max(variance, 25).squareRoot()
                                        // 128.5: the conversion below truncates, so this rounds.
                                        let value = 128.5 + 96 * (Float(input[row + x]) - mean) / deviation
                                        output[row + x] = UInt8(min(max(value, 0), 255))
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return GrayFrame(width: width, height: height, pixels: pixels)
    }
}
