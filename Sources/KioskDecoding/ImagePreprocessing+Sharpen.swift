import KioskCore

extension ImagePreprocessing {
    /// Unsharp masking: each pixel becomes `p + amount × (p − blur)`, clamped, where `blur` is the mean of the
    /// `(2r+1)²` window around it (clipped at the borders), from an integral image.
    ///
    /// A defocused or slightly moving code has soft module edges that a binariser splits in the wrong place;
    /// pushing each pixel away from its neighbourhood's mean steepens the edges again. Radius 2 and amount 1.5
    /// by default: about a module's width in a door frame, strong enough to restore edges, weak enough not to
    /// ring into neighbouring modules.
    public static func sharpened(_ frame: GrayFrame, radius: Int = 2, amount: Float = 1.5) -> GrayFrame {
        guard !frame.isEmpty else { return frame }
        let width = frame.width
        let height = frame.height
        let r = max(radius, 1)
        let stride = width + 1
        var sums = [UInt32](repeating: 0, count: stride * (height + 1))
        var pixels = [UInt8](repeating: 0, count: width * height)
        let left = (0..<width).map { max($0 - r, 0) }
        let right = (0..<width).map { min($0 + r + 1, width) }
        frame.pixels.withUnsafeBufferPointer { input in
            sums.withUnsafeMutableBufferPointer { sum in
                for y in 0..<height {
                    var rowSum: UInt32 = 0
                    let above = y * stride
                    let here = above + stride
                    let row = y * width
                    for x in 0..<width {
                        rowSum &+= UInt32(input[row + x])
                        sum[here + x + 1] = sum[above + x + 1] &+ rowSum
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
                                    let boxSum = sum[bottom + x1] &- sum[bottom + x0] &- sum[top + x1] &+ sum[top + x0]
                                    let mean = Float(boxSum) / (rows * Float(x1 - x0))
                                    let p = Float(input[row + x])
                                    let value = p + amount * (p - mean) + 0.5
                                    output[row + x] = UInt8(min(max(value, 0), 255))
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
