import GrayImage
import KioskCore
import QREncoding
import Testing

@testable import KioskDecoding

/// What the gate counts as a code's finder patterns, where light and turn mislead a plain look.
@Suite struct FinderPatternGateTests {
    func finder(_ x: Double, _ y: Double, module: Double) -> Finder {
        Finder(centre: SIMD2(x, y), module: module, darkCentre: true)
    }

    @Test func aSmallCodeTurned45DegreesFormsACode() {
        // A version 1 code of 3 px modules turned 45 degrees: its finder centres 14 modules (42 px) apart, and each
        // mark 7 modules across its row's diagonal, 4.24 px a module as the gate measures it. Counted in those,
        // the sides were under the 10 modules of the smallest code.
        let side = 42 / 2.squareRoot()
        let measured = 3 * 2.squareRoot()
        #expect(
            FinderPatternGate.formACode([
                finder(100, 100, module: measured), finder(100 + side, 100 + side, module: measured),
                finder(100 - side, 100 + side, module: measured),
            ]))
        // Upright, the same marks that close are too close for a code.
        #expect(
            !FinderPatternGate.formACode([
                finder(100, 100, module: measured), finder(100 + 42, 100, module: measured),
                finder(100, 100 + 42, module: measured),
            ]))
    }

    @Test func aDimCodesFinderPatternsBesideAWhiteStrokeAreSeen() throws {
        // A dim code in a dark room (ink 5, paper 60, the room 20), 4 px modules, with saturated white strokes
        // (255) down its right side and along its bottom in its quiet zone, as a marker pen draws them: counted at
        // face value they lift the windows' means near two of its finder patterns so far that their light rings
        // read as dark.
        let code = try QRCodeRenderer.render("SECOND CODE", moduleSize: 1, quietZone: 4)
        let placed = TestScenes.place(code.image, scale: 4, width: 640, height: 480)
        // A version 2 code: its 25 modules span 270 to 370 across and 190 to 290 down; its paper (the quiet zone)
        // 16 px more.
        let scene = TestScenes.map(placed) { x, y, value in
            let rightStroke = (374..<382).contains(x) && (182..<298).contains(y)
            let bottomStroke = (294..<302).contains(y) && (262..<382).contains(x)
            if rightStroke || bottomStroke { return 255 }
            guard (254..<386).contains(x), (174..<306).contains(y) else { return 20 }
            return value < 128 ? 5 : 60
        }
        let finders = FinderPatternGate().finders(scene)
        #expect(finders.count == 3, "\(finders.map(\.centre))")
        #expect(FinderPatternGate.formACode(finders))
    }

    @Test func aFinderPatternWhoseOuterRingGlareWashesOutOnOneSideIsSeen() throws {
        // A version 1 code of 6 px modules (ink 30, paper 200) with glare coming down onto its top left finder
        // pattern from above: over the pattern's width the paper above it is 245 and its top outer ring only 140,
        // lighter than the threshold its row sets; the column through its centre shows the pattern below the centre
        // and, above it, one light run past the limit. As on a poster behind glass (BoofCV's glare photos), the ring
        // is still darker than the light on either side of it.
        let code = try QRCodeRenderer.render("GLARE", moduleSize: 1, quietZone: 4)
        let placed = TestScenes.place(code.image, scale: 6, width: 640, height: 480)
        // The code's 29 modules (quiet zone included) span 233 to 407 across and 153 to 327 down; its top left
        // finder pattern 257 to 299 across, its top outer ring 177 to 183 down.
        func scene(topRing: UInt8) -> GrayFrame {
            TestScenes.map(placed) { x, y, value in
                if (257..<299).contains(x) {
                    if (100..<177).contains(y) { return 245 }
                    if (177..<183).contains(y) { return topRing }
                }
                return value < 128 ? 30 : 200
            }
        }
        // Its centre: 7.5 modules in from the corner.
        let topLeft = SIMD2(233 + 6 * 7.5, 153 + 6 * 7.5)
        func seesTopLeft(_ finders: [Finder]) -> Bool {
            finders.contains { abs($0.centre.x - topLeft.x) <= 6 && abs($0.centre.y - topLeft.y) <= 6 }
        }
        let washed = FinderPatternGate().finders(scene(topRing: 140))
        #expect(seesTopLeft(washed), "\(washed.map(\.centre))")
        // Marked as seen through a faint ring (not counted among the marks that make a frame busy); the others not.
        #expect(washed.allSatisfy { $0.isFaint == seesTopLeft([$0]) })
        #expect(FinderPatternGate.formACode(washed))
        // With no ring at all there (paper, as past the edge of print), no pattern.
        let gone = FinderPatternGate().finders(scene(topRing: 200))
        #expect(!seesTopLeft(gone), "\(gone.map(\.centre))")
    }
}
