import GrayImage
import KioskCore
import Testing

@testable import KioskDecoding

/// The gate's evidence before any read: two finder-like marks count only with a code's timing patterns where
/// they would be. Busy things in view (print, clothing, a checkerboard) give marks, not timing patterns.
@Suite struct TimingPatternTests {
    let gate = FinderPatternGate()

    @Test func aCodesFinderPatternsAreJoinedByItsTimingPatternsInEitherPolarity() {
        let scene = KioskDecoderTests.scene
        #expect(TimingPattern.joinsTwo(of: gate.finders(scene), in: scene))
        let inverted = TestScenes.map(scene) { _, _, value in 255 - value }
        #expect(TimingPattern.joinsTwo(of: gate.finders(inverted), in: inverted))
    }

    @Test func twoOfACodesThreeFinderPatternsAreEnoughNeighboursOrOpposite() {
        // The code is 5 px a module, centred: each finder pattern's 7x7 modules, covered with the background.
        let scene = KioskDecoderTests.scene
        let side = KioskDecoderTests.code.image.width * 5
        let left = (640 - side) / 2 + 4 * 5
        let top = (480 - side) / 2 + 4 * 5
        let far = (KioskDecoderTests.code.image.width - 8 - 7) * 5
        func covering(_ x: Int, _ y: Int) -> GrayFrame {
            TestScenes.map(scene) { px, py, value in
                px >= x - 5 && px < x + 40 && py >= y - 5 && py < y + 40 ? 255 : value
            }
        }
        // The bottom-left one hidden: the two top ones are neighbours. The top-left one: opposite corners.
        for frame in [covering(left, top + far), covering(left, top)] {
            let finders = gate.finders(frame)
            #expect(finders.count >= 2)
            #expect(TimingPattern.joinsTwo(of: finders, in: frame))
        }
    }

    @Test func finderPatternsAloneAreNotACodeUntilTheTimingPatternsJoinThem() {
        // Three finder patterns at a version 2 code's corners (25 modules, 5 px each) on a blank page: the marks
        // and their geometry are a code's, but nothing joins them.
        var page = Self.page(fill: 255)
        Self.drawFinders(on: &page)
        let finders = gate.finders(page)
        #expect(finders.count == 3)
        #expect(FinderPatternGate.formACode(finders))
        #expect(!TimingPattern.joinsTwo(of: finders, in: page))
        // Row 6 and column 6, dark on even modules, between the separators.
        for k in stride(from: 8, through: 16, by: 2) {
            Self.fill(&page, column: k, row: 6, value: 0)
            Self.fill(&page, column: 6, row: k, value: 0)
        }
        #expect(TimingPattern.joinsTwo(of: gate.finders(page), in: page))
    }

    @Test func stripesAlternateAcrossButNotAlongAndAreNotACode() {
        // Module-wide stripes: the line between the two top finder patterns alternates (so does the one through
        // their centres), the one down to the third does not.
        var stripes = TestScenes.map(Self.page(fill: 255)) { x, _, _ in (x / 5) % 2 == 0 ? 20 : 230 }
        Self.drawFinders(on: &stripes)
        let finders = gate.finders(stripes)
        #expect(finders.count >= 2)
        #expect(!TimingPattern.joinsTwo(of: finders, in: stripes))
    }

    @Test func aSmallPictureGoesPastTheGateOnMarksAloneACameraFrameDoesNot() throws {
        // The three bare finder patterns amid print (no quiet zone past them): on a 640x480 frame the cascade stops at
        // the gate but for the grids (three marks placed as a code's corners, each grid kept only on its own timing
        // patterns); cut to 240x240 (the whole cascade costs a quarter of the frame's there) it goes on.
        var page = TestScenes.map(Self.page(fill: 255)) { x, y, _ in TestScenes.blocks(x, y) }
        Self.drawFinders(on: &page)
        let decoder = KioskDecoder()
        let gate = try #require(decoder.settings.gatedFrom)
        _ = decoder.decode(page)
        let grids = decoder.settings.passes.filter { $0.image == .resampled }
        #expect(!grids.isEmpty)
        #expect(decoder.passesTried == Array(decoder.settings.passes.prefix(gate)) + grids)
        let small = GrayFrame(
            width: 240, height: 240, pixels: (0..<240).flatMap { y in (0..<240).map { x in page[190 + x, 100 + y] } })
        _ = decoder.decode(small)
        #expect(decoder.passesTried.count == decoder.settings.passes.count)
    }

    // MARK: - Drawing, in modules of 5 px from (200, 120)

    static func page(fill: UInt8) -> GrayFrame { GrayFrame(width: 640, height: 480, fill: fill) }

    static func fill(_ frame: inout GrayFrame, column: Int, row: Int, value: UInt8) {
        for y in (120 + row * 5)..<(125 + row * 5) where y >= 0 && y < frame.height {
            for x in (200 + column * 5)..<(205 + column * 5) where x >= 0 && x < frame.width { frame[x, y] = value }
        }
    }

    /// A version 2 code's three finder patterns with their light separators (modules 0-7 and 17-24).
    static func drawFinders(on frame: inout GrayFrame) {
        for (column, row) in [(0, 0), (18, 0), (0, 18)] {
            for dy in -1...7 {
                for dx in -1...7 {
                    let ring = max(abs(dx - 3), abs(dy - 3))
                    let dark = ring == 3 || ring <= 1
                    fill(&frame, column: column + dx, row: row + dy, value: dark && ring <= 3 ? 0 : 255)
                }
            }
        }
    }
}
