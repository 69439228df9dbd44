import Foundation
import GrayImage
import KioskCore
import QREncoding
import Testing

@testable import KioskDecoding

/// A pass on a curved surface (a sticker on a can, a card bent in a hand): its three finder patterns place its top
/// and left sides, its timing patterns show, but its far part lies off any flat grid through them.
@Suite struct CurvedCodeTests {
    static let text = "PASS-7"
    /// The code at one pixel per module, without a quiet zone.
    static let code = try! QRCodeRenderer.render(text, moduleSize: 1, quietZone: 0)

    /// `code` (one pixel per module, no quiet zone) printed on a card `module` pixels a module, turned `turn` degrees,
    /// centred in a 640×480 frame on a dark table (bowed by `bow` as `bowed` bows it, when given), its far corner
    /// curled up towards the camera by `curl` modules (each point moved out along the card's diagonal by curl ×
    /// (u / n)² × (v / n)², so the finder patterns stay where they were and the far corner moves most). Each pixel
    /// the mean of 2×2 samples, with sensor-like noise.
    static func curled(_ code: GrayFrame, module: Double, turn: Double, curl: Double, bow: Double = 0) -> GrayFrame {
        let n = Double(code.width)
        let (c, s) = (cos(turn * .pi / 180), sin(turn * .pi / 180))
        let centre = SIMD2(320.0, 240.0)
        func seen(_ p: SIMD2<Double>) -> SIMD2<Double> {
            let (u, v) = (min(max(p.x, 0), n + 4) / n, min(max(p.y, 0), n + 4) / n)
            let bend = curl * u * u * v * v
            let q = (p + SIMD2(bend, bend) / 2.squareRoot() - n / 2) * module
            return centre + SIMD2(c * q.x - s * q.y, s * q.x + c * q.y)
        }
        // The card's box in the frame, from its outline: the table elsewhere.
        let outline = (0...40).flatMap { i -> [SIMD2<Double>] in
            let t = Double(i) / 40 * (n + 8) - 4
            return [SIMD2(t, -4), SIMD2(t, n + 4), SIMD2(-4, t), SIMD2(n + 4, t)].map(seen)
        }
        let (xs, ys) = (outline.map(\.x), outline.map(\.y))
        var frame = GrayFrame(width: 640, height: 480, fill: 50)
        var state: UInt64 = 5
        for y in max(0, Int(ys.min()!) - 1)..<min(480, Int(ys.max()!) + 2) {
            for x in max(0, Int(xs.min()!) - 1)..<min(640, Int(xs.max()!) + 2) {
                var sum = 0.0
                for sub in 0..<4 {
                    let point = SIMD2(Double(x) + (Double(sub % 2) + 0.5) / 2, Double(y) + (Double(sub / 2) + 0.5) / 2)
                    // The card point seen here, by Newton's method (the curl's Jacobian is I + e gᵀ: e the
                    // diagonal, g the bend's gradient, inverted by Sherman–Morrison).
                    var p = SIMD2(n / 2, n / 2)
                    for _ in 0..<6 {
                        let off = seen(p) - point
                        let back = SIMD2(c * off.x + s * off.y, -s * off.x + c * off.y) / module
                        let inside = p.x > 0 && p.y > 0 && p.x < n + 4 && p.y < n + 4
                        let (u, v) = (p.x / n, p.y / n)
                        let g = inside ? curl * SIMD2(2 * u * v * v, 2 * u * u * v) / n : SIMD2(0, 0)
                        let e = SIMD2(1.0, 1.0) / 2.squareRoot()
                        p -= back - e * (g * back).sum() / (1 + (g * e).sum())
                    }
                    let miss = seen(p) - point
                    sum += (miss * miss).sum() > 0.01 ? 50 : grey(of: code, at: unbowed(p, bow: bow, n: n))
                }
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                frame[x, y] = TestScenes.pixel(sum / 4 + Double(Int(state >> 62) - 2))
            }
        }
        return frame
    }

    /// The printed point under `p` of a card bowed by `bow` (`bowed`): the column is the root of
    /// (4 bow / n²) u² − (1 + 4 bow / n) u + p.x = 0; rows are as printed.
    static func unbowed(_ p: SIMD2<Double>, bow: Double, n: Double) -> SIMD2<Double> {
        guard bow > 0, p.x > 0, p.x < n else { return p }
        let (a, b) = (4 * bow / (n * n), 1 + 4 * bow / n)
        return SIMD2((b - (b * b - 4 * a * p.x).squareRoot()) / (2 * a), p.y)
    }

    /// The card's grey at printed point `p`: the code's module (35 dark, 205 light), the label's margin of 4 modules
    /// (205), the table past it (50).
    static func grey(of code: GrayFrame, at p: SIMD2<Double>) -> Double {
        let n = Double(code.width)
        let (column, row) = (Int(p.x.rounded(.down)), Int(p.y.rounded(.down)))
        if p.x >= 0, p.y >= 0, column < code.width, row < code.height { return code[column, row] < 128 ? 35 : 205 }
        return p.x > -4 && p.y > -4 && p.x < n + 4 && p.y < n + 4 ? 205 : 50
    }

    /// `code` (one pixel per module, no quiet zone) printed on a card bowed one way, `module` pixels a module, turned
    /// `turn` degrees, centred in a 640×480 frame on a dark table: its columns crowd towards its far side (column u
    /// is seen at u + bow × 4 (u / n)(1 − u / n), its middle `bow` modules over), its rows as printed. Each pixel
    /// the mean of 2×2 samples, with sensor-like noise.
    static func bowed(_ code: GrayFrame, module: Double, turn: Double, bow: Double) -> GrayFrame {
        let n = Double(code.width)
        let (c, s) = (cos(turn * .pi / 180), sin(turn * .pi / 180))
        var frame = GrayFrame(width: 640, height: 480, fill: 50)
        var state: UInt64 = 9
        for y in 0..<480 {
            for x in 0..<640 {
                var sum = 0.0
                for sub in 0..<4 {
                    let point = SIMD2(Double(x) + (Double(sub % 2) + 0.5) / 2, Double(y) + (Double(sub / 2) + 0.5) / 2)
                    let q = (point - SIMD2(320, 240)) / module
                    let p = SIMD2(c * q.x + s * q.y, -s * q.x + c * q.y) + n / 2
                    sum += grey(of: code, at: unbowed(p, bow: bow, n: n))
                }
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                frame[x, y] = TestScenes.pixel(sum / 4 + Double(Int(state >> 62) - 2))
            }
        }
        return frame
    }

    @Test func theTimingPatternsPlaceTheColumnsOfACodeBowedOneWay() throws {
        let code = try QRCodeRenderer.render("BOWED-PASS-0042", moduleSize: 1, quietZone: 0)
        let n = code.image.width
        let (module, turn, bow) = (7.0, 15.0, 0.6)
        let frame = Self.bowed(code.image, module: module, turn: turn, bow: bow)
        // The grid of the card as printed, flat: its middle columns over half a module off where the bow took them.
        let (c, s) = (cos(turn * .pi / 180), sin(turn * .pi / 180))
        let corners = [SIMD2(0.0, 0), SIMD2(Double(n), 0), SIMD2(0, Double(n)), SIMD2(Double(n), Double(n))]
        let seen = corners.map { p -> SIMD2<Double> in
            let q = (p - Double(n) / 2) * module
            return SIMD2(320, 240) + SIMD2(c * q.x - s * q.y, s * q.x + c * q.y)
        }
        let grid = CodeGrid(dimension: n, toFrame: try #require(Homography(from: corners, to: seen)), darkOnLight: true)
        let greys = grid.greys(in: frame)
        #expect(grid.mended(from: greys, thresholds: grid.thresholds(of: greys)) == nil)
        // Along row 6 each boundary where the bow put it, within a tenth of a module; down column 6 where printed.
        let spacing = try #require(grid.timingSpacing(in: frame))
        for (i, boundary) in spacing.across.enumerated() {
            let k = Double(i + 7)
            #expect(abs(boundary - (k + bow * 4 * (k / Double(n)) * (1 - k / Double(n)))) < 0.1)
        }
        for (i, boundary) in spacing.down.enumerated() { #expect(abs(boundary - Double(i + 7)) < 0.15) }
        // Sampled between those boundaries, the code mends into the modules as printed.
        let spaced = grid.greys(in: frame, spacing: spacing)
        #expect(grid.formatDistance(spaced, thresholds: grid.thresholds(of: spaced)) == 0)
        let mended = grid.mended(from: spaced, thresholds: grid.thresholds(of: spaced))
        let printed = (0..<(n * n)).map { code.image[$0 % n, $0 / n] < 128 }
        #expect(mended == printed)
        // And the grid's own code, as the decoder asks for it, is that one.
        let drawn = grid.mendedCode(in: frame)?.image
        #expect(drawn.map { ZBarScanner().scan($0) } == [Array("BOWED-PASS-0042".utf8)])
    }

    @Test func aCardCurledAndBowedIsReadFromAMovedGridSampledBetweenItsTimingPatterns() throws {
        let text = "BOWED-PASS-0042"
        let code = try QRCodeRenderer.render(text, moduleSize: 1, quietZone: 0)
        // Its far corner curled 6 modules towards the camera and its middle columns bowed 0.8 modules over.
        let frame = Self.curled(code.image, module: 7, turn: 15, curl: 6, bow: 0.8)
        let (zbarRead, zxingRead) = (ZBarScanner().scan(frame), ZXingReader().scan(frame))
        #expect(zbarRead.isEmpty)
        #expect(zxingRead.isEmpty)
        let grid = try Self.grid(in: frame)
        let greys = grid.greys(in: frame)
        let thresholds = grid.thresholds(of: greys)
        // Neither the flat grid, nor it spaced, nor any of the moves alone mends; a move spaced does.
        #expect(grid.mended(from: greys, thresholds: thresholds) == nil)
        let spacedFlat = grid.spacedModules(in: frame)
        #expect(spacedFlat == nil)
        let moves = grid.farCornersMoved(in: frame, levels: thresholds[0])
        #expect(
            moves.allSatisfy { moved in
                let movedGreys = moved.greys(in: frame)
                return moved.mended(from: movedGreys, thresholds: moved.thresholds(of: movedGreys)) == nil
            })
        #expect(moves.contains { $0.spacedModules(in: frame) != nil })
        let drawn = grid.mendedCode(in: frame)?.image
        #expect(drawn.map { ZBarScanner().scan($0) } == [Array(text.utf8)])
        let decoded = KioskDecoder().decode(frame)
        #expect(decoded.map(\.payload) == [Array(text.utf8)])
    }

    /// The pass's one grid from the gate's three finder patterns.
    static func grid(in frame: GrayFrame) throws -> CodeGrid {
        var images = PassImages(source: frame, maxSide: 1280)
        let triple = try #require(CodeGrid.triples(images.allFinders(), limit: 1).first)
        let grid = CodeGrid.grid(topLeft: triple.0, topRight: triple.1, bottomLeft: triple.2, in: images.working)
        return try #require(grid)
    }

    @Test func aPassWithItsFarCornerCurledIsReadFromItsGridWithTheCornerMoved() throws {
        #expect(Self.code.version == 1)
        let frame = Self.curled(Self.code.image, module: 8, turn: 20, curl: 6)
        // Neither engine reads it (each expectation on values, not on the frame, which would print whole).
        let (zbarRead, zxingRead) = (ZBarScanner().scan(frame), ZXingReader().scan(frame))
        #expect(zbarRead.isEmpty)
        #expect(zxingRead.isEmpty)
        let grid = try Self.grid(in: frame)
        let timing = grid.timingScore(in: frame)
        #expect(timing > 0.9)
        // The flat grid through the three finder patterns: its format information reads, its block does not mend.
        let greys = grid.greys(in: frame)
        let thresholds = grid.thresholds(of: greys)
        #expect(grid.formatDistance(greys, thresholds: thresholds) == 0)
        #expect(grid.mended(from: greys, thresholds: thresholds) == nil)
        // With its far corner moved out towards where the curl took it, it mends.
        let mendedCode = grid.mendedCode(in: frame)
        let mended = try #require(mendedCode)
        let far = Double(grid.dimension) - 3.5
        let moved = mended.grid.toFrame(SIMD2(far, far)) - grid.toFrame(SIMD2(far, far))
        #expect((moved * moved).sum().squareRoot() >= grid.moduleSize / 2)
        let decoded = KioskDecoder().decode(frame)
        #expect(decoded.map(\.payload) == [Array(Self.text.utf8)])
        #expect(decoded.first?.foundBy.hasSuffix("resampled") == true)
    }

    @Test func aCodeWhoseDataIsTornAwayIsNotMendedIntoAnotherByMovingItsCorner() throws {
        // The same curled pass with the data beyond its finder and format modules painted over with random
        // blocks: its format information still reads, so the far corner is moved, and no move mends it.
        let n = Self.code.image.width
        let torn = TestScenes.map(Self.code.image) { x, y, value in
            x > 9 && y > 9 ? (TestScenes.blocks(x * 5, y * 5) < 128 ? 0 : 255) : value
        }
        let frame = Self.curled(torn, module: 8, turn: 20, curl: 6)
        let grid = try Self.grid(in: frame)
        #expect(grid.dimension == n)
        let greys = grid.greys(in: frame)
        #expect(grid.formatDistance(greys, thresholds: grid.thresholds(of: greys)) <= CodeGrid.bentGridFormatDistance)
        let mendedCode = grid.mendedCode(in: frame)
        #expect(mendedCode == nil)
        let decoded = KioskDecoder().decode(frame)
        #expect(decoded.isEmpty)
    }
}
