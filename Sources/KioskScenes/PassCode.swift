import GrayImage
import KioskCore

/// The clean QR code a scene shows, measured once: where its dark modules are and how big a module is.
///
/// The renderers draw their own quiet zone, so any margin around the code in the input image is ignored.
struct PassCode: Sendable {
    /// Input pixels per module.
    let moduleSize: Double
    /// The smallest rectangle holding every dark pixel, in input pixels.
    let origin: SIMD2<Double>
    let size: SIMD2<Double>
    /// Modules across the code (without quiet zone).
    let moduleCount: Int
    /// Row-major, `moduleCount²` entries: whether each module is light.
    private let lightModules: [Bool]

    init(_ frame: GrayFrame, moduleSize: Int) {
        precondition(moduleSize > 0 && !frame.isEmpty, "a code needs pixels and a module size")
        self.moduleSize = Double(moduleSize)
        var (minX, minY, maxX, maxY) = (frame.width, frame.height, 0, 0)
        for y in 0..<frame.height {
            for x in 0..<frame.width where frame[x, y] < 128 {
                (minX, minY) = (min(minX, x), min(minY, y))
                (maxX, maxY) = (max(maxX, x + 1), max(maxY, y + 1))
            }
        }
        if minX >= maxX { (minX, minY, maxX, maxY) = (0, 0, frame.width, frame.height) }
        let origin = SIMD2(Double(minX), Double(minY))
        let size = SIMD2(Double(maxX - minX), Double(maxY - minY))
        let count = max(Int((size.x / Double(moduleSize)).rounded()), 1)
        let pitch = size / Double(count)
        self.origin = origin
        self.size = size
        moduleCount = count
        lightModules = (0..<(count * count)).map { index in
            let pixel = origin + (SIMD2(Double(index % count), Double(index / count)) + 0.5) * pitch
            return frame[min(Int(pixel.x), frame.width - 1), min(Int(pixel.y), frame.height - 1)] >= 128
        }
    }

    /// The code drawn at `pixelsPerModule` with `quietZone` light modules around it: `dark` and `light` values,
    /// crisp module edges, point-sampled per output pixel (sub-pixel module sizes stay exact on average).
    func rendered(pixelsPerModule: Double, quietZone: Double, dark: Float, light: Float) -> SceneImage {
        let side = Int(((Double(moduleCount) + 2 * quietZone) * pixelsPerModule).rounded())
        // The module under each column (and, the image being square, each row); -1 in the quiet zone.
        let modules = (0..<side).map { pixel -> Int in
            let module = ((Double(pixel) + 0.5) / pixelsPerModule - quietZone).rounded(.down)
            return module >= 0 && module < Double(moduleCount) ? Int(module) : -1
        }
        var result = SceneImage(width: side, height: side, fill: light)
        result.pixels.withUnsafeMutableBufferPointer { destination in
            for y in 0..<side where modules[y] >= 0 {
                let row = modules[y] * moduleCount
                for x in 0..<side where modules[x] >= 0 && !lightModules[row + modules[x]] {
                    destination[y * side + x] = dark
                }
            }
        }
        return result
    }
}
