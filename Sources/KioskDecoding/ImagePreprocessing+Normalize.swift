import GrayImage
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
        // A radius of at most 127: at most 255² pixels per window, so its sum of p² is exact in UInt32.
        let windows = BoxWindows(
            width: width, height: height, radius: min(max(radius ?? min(width, height) / 8, 1), 127))
        let sums = integralImage(frame)
        let squares = integralImage(frame, squares: true)
        var pixels = [UInt8](repeating: 0, count: width * height)
        frame.pixels.withUnsafeBufferPointer { input in
            sums.withUnsafeBufferPointer { sum in
                squares.withUnsafeBufferPointer { square in
                    pixels.withUnsafeMutableBufferPointer { output in
                        windows.left.withUnsafeBufferPointer { left in
                            windows.right.withUnsafeBufferPointer { right in
                                for y in 0..<height {
                                    let (top, bottom, rows) = windows.rows(y)
                                    let row = y * width
                                    for x in 0..<width {
                                        let x0 = left[x]
                                        let x1 = right[x]
                                        let boxSum = BoxWindows.sum(sum, top: top, bottom: bottom, x0: x0, x1: x1)
                                        let boxSquare = BoxWindows.sum(square, top: top, bottom: bottom, x0: x0, x1: x1)
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
