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
        let windows = BoxWindows(width: width, height: height, radius: max(radius, 1))
        let sums = integralImage(frame)
        var pixels = [UInt8](repeating: 0, count: width * height)
        frame.pixels.withUnsafeBufferPointer { input in
            sums.withUnsafeBufferPointer { sum in
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
