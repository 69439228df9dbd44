import GrayImage
import KioskCore

/// A grey picture with floating-point samples, the working surface of the scene renderer.
///
/// 0 is black and 255 is white as the camera would record it at normal exposure; values may leave that range
/// (a bright screen, glare) until `grayFrame()` clips them, the way a sensor saturates. Pixel `(x, y)` covers the
/// square `[x, x+1) × [y, y+1)`, so its centre is at `(x + 0.5, y + 0.5)` in continuous coordinates.
struct SceneImage: Sendable, Equatable {
    let width: Int
    let height: Int
    var pixels: [Float]

    init(width: Int, height: Int, fill: Float = 0) {
        self.width = width
        self.height = height
        pixels = [Float](repeating: fill, count: width * height)
    }

    init(width: Int, height: Int, pixels: [Float]) {
        precondition(pixels.count == width * height, "pixel count must be width*height")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    init(_ frame: GrayFrame) {
        self.init(width: frame.width, height: frame.height, pixels: frame.pixels.map(Float.init))
    }

    subscript(x: Int, y: Int) -> Float {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// Rounds and clips to 8 bits, like the camera's output.
    func grayFrame() -> GrayFrame {
        let bytes = pixels.map { value -> UInt8 in
            value.isNaN ? 0 : UInt8(min(max(value.rounded(), 0), 255))
        }
        return GrayFrame(width: width, height: height, pixels: bytes)
    }

    var mean: Double {
        pixels.isEmpty ? 0 : pixels.reduce(0.0) { $0 + Double($1) } / Double(pixels.count)
    }

    /// Applies `transform` to every sample.
    mutating func map(_ transform: (Float) -> Float) {
        pixels.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices { buffer[index] = transform(buffer[index]) }
        }
    }

    /// Copies `other` with its top-left corner at `(x, y)`; it must fit.
    mutating func place(_ other: SceneImage, at x: Int, _ y: Int) {
        precondition(x >= 0 && y >= 0 && x + other.width <= width && y + other.height <= height, "must fit")
        for row in 0..<other.height {
            pixels.replaceSubrange(
                ((y + row) * width + x)..<((y + row) * width + x + other.width),
                with: other.pixels[(row * other.width)..<((row + 1) * other.width)])
        }
    }

    /// Adds `other` (the same size) sample by sample.
    mutating func add(_ other: SceneImage) {
        precondition(other.width == width && other.height == height, "images must be the same size")
        pixels.withUnsafeMutableBufferPointer { destination in
            other.pixels.withUnsafeBufferPointer { source in
                for index in destination.indices { destination[index] += source[index] }
            }
        }
    }
}
