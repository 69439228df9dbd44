import GrayImage
import KioskCore

extension ImagePreprocessing {
    /// A local threshold with a small window: each pixel becomes black (0) when it is darker than the mean of the
    /// `(2r+1)²` window around it (clipped at the borders) by more than `offset` grey levels, else white (255).
    ///
    /// With a window of about one to three modules, the picture that comes out keeps every module edge whatever the
    /// light does across the code: a bright spot, glare or a shadow that saturates half a code in the engines' own
    /// binarisers (their windows are wider, or global) leaves the edges where they are. Wide dark areas become
    /// outlines, which both engines still read. Radius 4 (a 9 px window) and 1 grey level by default: on the BoofCV
    /// photos, windows of 7 to 17 px and offsets of 0 to 3 read within a few codes of each other (docs/benchmarks/2026-11-25-decoder.md).
    public static func locallyThresholded(_ frame: GrayFrame, radius: Int = 4, offset: Int = 1) -> GrayFrame {
        let offset = Float(offset)
        return mappedAgainstLocalMean(frame, radius: radius) { p, mean in p < mean - offset ? 0 : 255 }
    }
}
