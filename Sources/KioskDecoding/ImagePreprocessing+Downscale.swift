import GrayImage
import KioskCore

extension ImagePreprocessing {
    /// Box-averages `factor`×`factor` blocks into one pixel (rounded). The result is
    /// `width / factor` × `height / factor`; a remainder of fewer than `factor` columns or rows is dropped.
    /// Averaging is a low-pass filter: it also smooths sensor noise and screen moire.
    public static func downscaled(_ frame: GrayFrame, by factor: Int) -> GrayFrame {
        precondition(factor >= 1, "downscale factor must be at least 1")
        if factor == 1 { return frame }
        let width = frame.width / factor
        let height = frame.height / factor
        guard width > 0, height > 0 else { return GrayFrame(width: 0, height: 0, pixels: []) }
        var pixels = [UInt8](repeating: 0, count: width * height)
        frame.pixels.withUnsafeBufferPointer { input in
            pixels.withUnsafeMutableBufferPointer { output in
                switch factor {
                case 2: downscale2(input, stride: frame.width, output, width: width, height: height)
                case 4: downscale4(input, stride: frame.width, output, width: width, height: height)
                default: downscaleN(input, stride: frame.width, output, width: width, height: height, factor: factor)
                }
            }
        }
        return GrayFrame(width: width, height: height, pixels: pixels)
    }

    /// The integer box factor that brings the longer side to at most `maxSide` (1 if it already is).
    public static func factorToFit(_ frame: GrayFrame, maxSide: Int) -> Int {
        let longSide = max(frame.width, frame.height)
        guard maxSide > 0, longSide > maxSide else { return 1 }
        return (longSide + maxSide - 1) / maxSide
    }

    /// Box-scaled down by the smallest integer factor that makes the longer side at most `maxSide`.
    public static func scaledToFit(_ frame: GrayFrame, maxSide: Int) -> GrayFrame {
        downscaled(frame, by: factorToFit(frame, maxSide: maxSide))
    }

    private static func downscale2(
        _ input: UnsafeBufferPointer<UInt8>, stride: Int,
        _ output: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int
    ) {
        for y in 0..<height {
            let top = 2 * y * stride
            let bottom = top + stride
            let out = y * width
            for x in 0..<width {
                let sum =
                    UInt16(input[top + 2 * x]) &+ UInt16(input[top + 2 * x + 1])
                    &+ UInt16(input[bottom + 2 * x]) &+ UInt16(input[bottom + 2 * x + 1])
                output[out + x] = UInt8(truncatingIfNeeded: (sum &+ 2) >> 2)
            }
        }
    }

    private static func downscale4(
        _ input: UnsafeBufferPointer<UInt8>, stride: Int,
        _ output: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int
    ) {
        for y in 0..<height {
            let out = y * width
            for x in 0..<width {
                var sum: UInt16 = 0
                var row = 4 * y * stride + 4 * x
                for _ in 0..<4 {
                    sum =
                        sum &+ UInt16(input[row]) &+ UInt16(input[row + 1]) &+ UInt16(input[row + 2])
                        &+ UInt16(input[row + 3])
                    row += stride
                }
                output[out + x] = UInt8(truncatingIfNeeded: (sum &+ 8) >> 4)
            }
        }
    }

    private static func downscaleN(
        _ input: UnsafeBufferPointer<UInt8>, stride: Int,
        _ output: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int, factor: Int
    ) {
        let area = UInt32(factor * factor)
        var columnSums = [UInt32](repeating: 0, count: width)
        columnSums.withUnsafeMutableBufferPointer { sums in
            for y in 0..<height {
                for x in 0..<width { sums[x] = 0 }
                for row in (y * factor)..<((y + 1) * factor) {
                    let base = row * stride
                    for x in 0..<width {
                        var sum: UInt32 = 0
                        let start = base + x * factor
                        for i in start..<(start + factor) { sum &+= UInt32(input[i]) }
                        sums[x] &+= sum
                    }
                }
                let out = y * width
                for x in 0..<width { output[out + x] = UInt8(truncatingIfNeeded: (sums[x] + area / 2) / area) }
            }
        }
    }
}
