import GrayImage
import KioskCore
import Testing

@testable import KioskScenes

/// A deterministic textured test image.
private func texturedImage(width: Int = 64, height: Int = 48, seed: UInt64 = 7) -> SceneImage {
    var rng = SplitMix64(seed: seed)
    return SceneImage(width: width, height: height, pixels: (0..<(width * height)).map { _ in Float(rng.next() % 256) })
}

@Test func identityHomographyWarpCopiesTheImage() {
    let source = texturedImage()
    var canvas = SceneImage(width: source.width, height: source.height, fill: 0)
    canvas.paint(source, through: .identity)
    #expect(canvas == source)
}

@Test func homographyFromFourPointsMapsThemAndInverts() throws {
    let from = [SIMD2(0.0, 0), SIMD2(100, 0), SIMD2(100, 80), SIMD2(0, 80)]
    let to = [SIMD2(12.0, 7), SIMD2(90, 20), SIMD2(85, 95), SIMD2(5, 70)]
    let mapping = try #require(Homography(mapping: from, to: to))
    for (point, image) in zip(from, to) {
        let mapped = mapping.map(point)
        #expect(abs(mapped.x - image.x) < 1e-9 && abs(mapped.y - image.y) < 1e-9)
        let back = mapping.inverse.map(image)
        #expect(abs(back.x - point.x) < 1e-9 && abs(back.y - point.y) < 1e-9)
    }
    let roundTrip = (mapping.inverse * mapping).map(SIMD2(33, 44))
    #expect(abs(roundTrip.x - 33) < 1e-9 && abs(roundTrip.y - 44) < 1e-9)
}

@Test(arguments: [0.6, 1.5, 4.0])
func gaussianBlurPreservesTheMean(sigma: Double) {
    let image = texturedImage()
    let blurred = image.gaussianBlurred(sigma: sigma)
    #expect(abs(blurred.mean - image.mean) < 0.5)
    #expect(blurred.pixels.max()! < image.pixels.max()!)
}

@Test func boxAndMotionBlurPreserveAConstantImage() {
    let flat = SceneImage(width: 40, height: 30, fill: 123)
    #expect(flat.boxBlurred(radius: 3).pixels.allSatisfy { abs($0 - 123) < 1e-3 })
    #expect(flat.motionBlurred(length: 7, angle: 0.7).pixels.allSatisfy { abs($0 - 123) < 1e-3 })
}

@Test func motionBlurPreservesTheMeanAwayFromEdges() {
    let image = texturedImage(width: 120, height: 90)
    let blurred = image.motionBlurred(length: 6, angle: 0.4)
    #expect(abs(blurred.mean - image.mean) < 2)
}

@Test func splitMixIsDeterministic() {
    var a = SplitMix64(seed: 42)
    var b = SplitMix64(seed: 42)
    var c = SplitMix64(seed: 43)
    let first = (0..<8).map { _ in a.next() }
    #expect(first == (0..<8).map { _ in b.next() })
    #expect(first != (0..<8).map { _ in c.next() })
}

/// A code-like test pattern: 25×25 random modules of 8 px with a 4-module quiet zone.
private func testCode() -> GrayFrame {
    var rng = SplitMix64(seed: 99)
    let modules = 25
    let side = (modules + 8) * 8
    var frame = GrayFrame(width: side, height: side, fill: 255)
    for my in 0..<modules {
        for mx in 0..<modules where rng.next() & 1 == 0 {
            for y in 0..<8 { for x in 0..<8 { frame[(mx + 4) * 8 + x, (my + 4) * 8 + y] = 0 } }
        }
    }
    return frame
}

@Test(arguments: DoorCondition.allCases)
func sameSeedRendersTheSameFrame(condition: DoorCondition) {
    let code = testCode()
    var first = SplitMix64(seed: 5)
    var second = SplitMix64(seed: 5)
    let a = DoorScenes.render(condition, code: code, moduleSize: 8, width: 320, height: 240, rng: &first)
    let b = DoorScenes.render(condition, code: code, moduleSize: 8, width: 320, height: 240, rng: &second)
    #expect(a == b)
    #expect(a.width == 320 && a.height == 240)
    var other = SplitMix64(seed: 6)
    #expect(DoorScenes.render(condition, code: code, moduleSize: 8, width: 320, height: 240, rng: &other) != a)
}

@Test func twoCodesAndEmptySceneAreDeterministic() {
    let code = testCode()
    var first = SplitMix64(seed: 1)
    var second = SplitMix64(seed: 1)
    #expect(
        DoorScenes.renderTwo(code, code, moduleSize: 8, rng: &first)
            == DoorScenes.renderTwo(code, code, moduleSize: 8, rng: &second))
    #expect(DoorScenes.empty(rng: &first) == DoorScenes.empty(rng: &second))
}

@Test func passCodeFindsTheModules() {
    let code = PassCode(testCode(), moduleSize: 8)
    #expect(code.moduleCount == 25 || code.moduleCount == 24 || code.moduleCount == 23)
    let redrawn = code.rendered(pixelsPerModule: 8, quietZone: 0, dark: 0, light: 255)
    #expect(redrawn.width == code.moduleCount * 8)
}
