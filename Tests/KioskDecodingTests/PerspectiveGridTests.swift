import GrayImage
import KioskCore
import QREncoding
import Testing

@testable import KioskDecoding

/// A code seen steeply aslant (a pass held at an angle, a sign on a door seen from the side): its finder patterns
/// are sheared far out of square, it is much shorter one way than the other, and a grid laid evenly between its
/// finder centres drifts off its timing patterns.
@Suite struct PerspectiveGridTests {
    static let text = "ASLANT-PASS-0042"
    /// The code at one pixel per module, without a quiet zone.
    static let code = try! QRCodeRenderer.render(text, moduleSize: 1, quietZone: 0)

    /// The code's four corners (top left, top right, bottom left, bottom right) where a photo of a code on a door
    /// seen from the side put them (BoofCV's perspective/image030, moved into a 640×480 frame): one side about
    /// 1.8 times the other, at about 50 degrees.
    static let corners: [SIMD2<Double>] = [SIMD2(320, 140), SIMD2(368, 301), SIMD2(271, 220), SIMD2(307, 359)]

    /// The code drawn through that perspective on a light wall (`TestScenes.drawn`).
    static let scene = TestScenes.drawn(code.image, at: corners, width: 640, height: 480)

    @Test func theCodeIsAsSteepAsThePhotos() {
        #expect(Self.code.version == 2)
        let (tl, tr, bl) = (Self.corners[0], Self.corners[1], Self.corners[2])
        let (across, down) = (tr - tl, bl - tl)
        let (a, d) = ((across * across).sum().squareRoot(), (down * down).sum().squareRoot())
        #expect(a / d > 1.6)
        // Further from square than the gate's own geometry allows (55 degrees).
        #expect(abs((across * down).sum()) / (a * d) > 0.6)
    }

    @Test func aCodeSeenSteeplyAslantIsReadFromItsPerspectiveGrid() {
        let decoder = KioskDecoder()
        #expect(decoder.decode(Self.scene).map(\.payload) == [Array(Self.text.utf8)])
        // The gate's evidence alone (a pattern's column within 0.7 to 1.4 times its row) does not see this code.
        let gate = FinderPatternGate()
        #expect(!FinderPatternGate.formACode(gate.finders(Self.scene)))
        #expect(gate.finders(Self.scene, aslant: true).contains { $0.isAslant })
    }

    @Test func theFinderPatternsWidthsGiveTheSidesPerspective() throws {
        // The finder centres, 3.5 modules in from the corners, through the same perspective.
        let n = Double(Self.code.moduleCount)
        let toFrame = try #require(
            Homography(from: [.zero, SIMD2(n, 0), SIMD2(0, n), SIMD2(n, n)], to: Self.corners))
        let centres = [SIMD2(3.5, 3.5), SIMD2(n - 3.5, 3.5), SIMD2(3.5, n - 3.5)].map { toFrame($0) }
        let modules = try #require(
            CodeGrid.SideModules(centres, module: 4, darkCentre: true, in: Self.scene))
        // Along each side the module at either end, as the perspective has them, within 15 %.
        func module(at point: SIMD2<Double>, towards other: SIMD2<Double>) -> Double {
            let (a, b) = (
                toFrame(point),
                toFrame(point + (other - point) / ((other - point) * (other - point)).sum().squareRoot())
            )
            return ((b - a) * (b - a)).sum().squareRoot()
        }
        let expected = [
            module(at: SIMD2(3.5, 3.5), towards: SIMD2(n - 3.5, 3.5)),
            module(at: SIMD2(n - 3.5, 3.5), towards: SIMD2(3.5, 3.5)),
            module(at: SIMD2(3.5, 3.5), towards: SIMD2(3.5, n - 3.5)),
            module(at: SIMD2(3.5, n - 3.5), towards: SIMD2(3.5, 3.5)),
        ]
        let measured = [modules.across.near, modules.across.far, modules.down.near, modules.down.far]
        for (m, e) in zip(measured, expected) { #expect(abs(m - e) <= 0.15 * e, "\(measured) against \(expected)") }
        // The grid from them puts every module of the code where it is: the redrawn code is the code.
        let grid = try #require(
            CodeGrid.grid(
                topLeft: Finder(centre: centres[0], module: 4, darkCentre: true),
                topRight: Finder(centre: centres[1], module: 4, darkCentre: true),
                bottomLeft: Finder(centre: centres[2], module: 4, darkCentre: true), in: Self.scene))
        #expect(grid.dimension == Self.code.moduleCount)
        let greys = grid.greys(in: Self.scene)
        let threshold = CodeGrid.otsu(greys)
        var wrong = 0
        for row in 0..<grid.dimension {
            for column in 0..<grid.dimension
            where (greys[row * grid.dimension + column] < threshold) != (Self.code.image[column, row] < 128) {
                wrong += 1
            }
        }
        #expect(wrong == 0)
    }

    @Test func finderWidthsThatPutTheVanishingLineAcrossTheCodeGiveNoGrid() throws {
        // Widths no photo of a code gives (a frame of noise can): the far end's modules a hundredth of the near
        // end's, or a hundred times them. The map's vanishing line would cross the code, where its points are
        // infinite: no grid, and nothing sampled there.
        let centres = [SIMD2(100.0, 100), SIMD2(190, 100), SIMD2(100, 190)]
        for (near, far) in [(5.0, 0.05), (5.0, 500)] {
            let widths = CodeGrid.SideModules(across: (near, far), down: (near, far))
            #expect(CodeGrid.perspective(centres, modules: widths, dimension: 25) == nil, "\(near), \(far)")
        }
        // Widths of a code seen aslant give one.
        let aslant = CodeGrid.SideModules(across: (5, 4), down: (5, 5))
        #expect(CodeGrid.perspective(centres, modules: aslant, dimension: 25) != nil)
    }

    @Test func aPointAtInfinityReadsAsTheFramesCornerNotATrap() {
        var frame = GrayFrame(width: 4, height: 3, fill: 10)
        frame[3, 2] = 200
        #expect(frame.bilinear(at: SIMD2(.infinity, .infinity)) == 200)
        #expect(frame.bilinear(at: SIMD2(.nan, .nan)) == 10)
        #expect(frame.bilinear(at: SIMD2(-.infinity, 1)) == 10)
    }
}
