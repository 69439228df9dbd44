import GrayImage
import KioskCore

@testable import KioskDecoding

/// Simple, deterministic picture transforms for decoder tests.
enum TestScenes {
    /// `image` scaled by `scale` (nearest neighbour) and centred in a `width`×`height` frame of `fill`;
    /// parts that fall outside the frame are cut off.
    static func place(_ image: GrayFrame, scale: Double, width: Int, height: Int, fill: UInt8 = 255) -> GrayFrame {
        var out = GrayFrame(width: width, height: height, fill: fill)
        let originX = (Double(width) - Double(image.width) * scale) / 2
        let originY = (Double(height) - Double(image.height) * scale) / 2
        for y in 0..<height {
            let sourceY = (Double(y) - originY) / scale
            guard sourceY >= 0, Int(sourceY) < image.height else { continue }
            for x in 0..<width {
                let sourceX = (Double(x) - originX) / scale
                guard sourceX >= 0, Int(sourceX) < image.width else { continue }
                out[x, y] = image[Int(sourceX), Int(sourceY)]
            }
        }
        return out
    }

    /// Every pixel through `transform(x, y, value)`.
    static func map(_ image: GrayFrame, _ transform: (Int, Int, UInt8) -> UInt8) -> GrayFrame {
        var out = image
        for y in 0..<image.height {
            for x in 0..<image.width { out[x, y] = transform(x, y, image[x, y]) }
        }
        return out
    }

    /// Uniform pseudo-random noise (a fixed LCG, so every run sees the same frame).
    static func noise(width: Int, height: Int, seed: UInt64 = 42) -> GrayFrame {
        var state = seed
        let pixels = (0..<(width * height)).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        return GrayFrame(width: width, height: height, pixels: pixels)
    }

    /// `code` (one pixel per module, no quiet zone) drawn through perspective with its four corners (top left, top
    /// right, bottom left, bottom right) at `corners` on a light wall, each pixel the mean of 4×4 samples (a lens's
    /// blur at module edges), with sensor-like noise.
    static func drawn(_ code: GrayFrame, at corners: [SIMD2<Double>], width: Int, height: Int) -> GrayFrame {
        let n = Double(code.width)
        let toCode = Homography(from: corners, to: [.zero, SIMD2(n, 0), SIMD2(0, n), SIMD2(n, n)])!
        var frame = GrayFrame(width: width, height: height, fill: 205)
        var state: UInt64 = 7
        for y in 0..<height {
            for x in 0..<width {
                var sum = 0.0
                for sub in 0..<16 {
                    let point = toCode(
                        SIMD2(Double(x) + (Double(sub % 4) + 0.5) / 4, Double(y) + (Double(sub / 4) + 0.5) / 4))
                    let (column, row) = (Int(point.x.rounded(.down)), Int(point.y.rounded(.down)))
                    let inside = point.x >= 0 && point.y >= 0 && column < code.width && row < code.height
                    sum += inside && code[column, row] < 128 ? 35 : 205
                }
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                frame[x, y] = pixel(sum / 16 + Double(Int(state >> 62) - 2))
            }
        }
        return frame
    }

    /// Blocks of 5 px, dark (30) or light (225) at random (fixed): a code's data, print, a busy shirt.
    static func blocks(_ x: Int, _ y: Int) -> UInt8 {
        var state = UInt64(x / 5) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(y / 5) &* 0xC2B2_AE3D_27D4_EB4F
        state ^= state >> 29
        state = state &* 0xBF58_476D_1CE4_E5B9
        return (state >> 40) % 2 == 0 ? 30 : 225
    }

    /// `value` clamped into a pixel.
    static func pixel(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }
}
