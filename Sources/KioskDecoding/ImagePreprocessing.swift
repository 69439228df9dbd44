import GrayImage
import KioskCore

/// Pure-Swift image operations the decoder's passes apply before zbar. Written as tight loops over
/// unsafe buffers: they run on every frame at 30 fps.
public enum ImagePreprocessing {
    /// Light-on-dark becomes dark-on-light: every pixel `p` becomes `255 - p`.
    public static func inverted(_ frame: GrayFrame) -> GrayFrame {
        var pixels = [UInt8](repeating: 0, count: frame.pixels.count)
        frame.pixels.withUnsafeBufferPointer { input in
            pixels.withUnsafeMutableBufferPointer { output in
                for i in 0..<input.count { output[i] = ~input[i] }
            }
        }
        return GrayFrame(width: frame.width, height: frame.height, pixels: pixels)
    }
}
