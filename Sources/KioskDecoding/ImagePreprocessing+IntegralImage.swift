import GrayImage
import KioskCore

extension ImagePreprocessing {
    /// The summed-area table of `frame`, `(width + 1) × (height + 1)` entries with a zero first row and column:
    /// the entry at `(x, y)` is the sum of the pixels above and left of it, of `p`, or of `p²` with `squares`.
    /// Sums wrap in `UInt32`; the wrapping difference of four entries (`BoxWindows.sum`) is exact while a
    /// window's true sum fits, which for `p²` means at most 255² pixels.
    static func integralImage(_ frame: GrayFrame, squares: Bool = false) -> [UInt32] {
        let width = frame.width
        let stride = width + 1
        var table = [UInt32](repeating: 0, count: stride * (frame.height + 1))
        frame.pixels.withUnsafeBufferPointer { input in
            table.withUnsafeMutableBufferPointer { sum in
                for y in 0..<frame.height {
                    var rowSum: UInt32 = 0
                    let above = y * stride
                    let here = above + stride
                    let row = y * width
                    for x in 0..<width {
                        let p = UInt32(input[row + x])
                        rowSum &+= squares ? p &* p : p
                        sum[here + x + 1] = sum[above + x + 1] &+ rowSum
                    }
                }
            }
        }
        return table
    }
}

extension ImagePreprocessing {
    /// Each pixel `p` of `frame` becomes `transform(p, mean)`, where `mean` is the mean of the `(2r+1)²` window
    /// around it (clipped at the borders), from an integral image: the loop the sharpening and the threshold share.
    @inline(__always)
    static func mappedAgainstLocalMean(
        _ frame: GrayFrame, radius: Int, _ transform: (_ pixel: Float, _ mean: Float) -> UInt8
    ) -> GrayFrame {
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
                                    output[row + x] = transform(Float(input[row + x]), mean)
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

/// The `(2r+1)²` windows around each pixel of a `width × height` frame, clipped at its borders, as offsets into
/// its integral image (`ImagePreprocessing.integralImage`): the column bounds worked out once per column, the row
/// bounds once per row, not per pixel.
struct BoxWindows {
    let width: Int
    let height: Int
    let radius: Int
    /// First column of each column's window, and one past its last.
    let left: [Int]
    let right: [Int]

    init(width: Int, height: Int, radius: Int) {
        self.width = width
        self.height = height
        self.radius = radius
        left = (0..<width).map { max($0 - radius, 0) }
        right = (0..<width).map { min($0 + radius + 1, width) }
    }

    var stride: Int { width + 1 }

    /// Row `y`'s window: the integral image offsets of its top and bottom rows, and how many rows it spans.
    func rows(_ y: Int) -> (top: Int, bottom: Int, count: Float) {
        let top = max(y - radius, 0)
        let bottom = min(y + radius + 1, height)
        return (top * stride, bottom * stride, Float(bottom - top))
    }

    /// The sum over the window from the table's offsets (`rows`, `left`, `right`).
    @inline(__always)
    static func sum(_ table: UnsafeBufferPointer<UInt32>, top: Int, bottom: Int, x0: Int, x1: Int) -> UInt32 {
        table[bottom + x1] &- table[bottom + x0] &- table[top + x1] &+ table[top + x0]
    }
}
