import GrayImage
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
        mappedAgainstLocalMean(frame, radius: radius) { p, mean in
            UInt8(min(max(p + amount * (p - mean) + 0.5, 0), 255))
        }
    }
}
