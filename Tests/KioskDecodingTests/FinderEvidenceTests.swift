import Foundation
import GrayImage
import KioskCore
import QREncoding
import Testing

@testable import KioskDecoding

/// What the gate takes for a code's finder patterns before it spends the whole cascade: marks that are square (a
/// checkerboard's, stripes' and moire's are not) with the code's quiet zone past them (print, a plaid, a keyboard
/// go on past theirs).
@Suite struct FinderEvidenceTests {
    let gate = FinderPatternGate()

    /// The test code at 5 px a module, centred, with `outside(x, y)` where its quiet zone and the page around it
    /// were.
    static func code(amid outside: (Int, Int) -> UInt8) -> GrayFrame {
        let side = KioskDecoderTests.code.image.width * 5
        let (left, top) = ((640 - side) / 2, (480 - side) / 2)
        return TestScenes.map(KioskDecoderTests.scene) { x, y, value in
            let inCode = x >= left + 20 && x < left + side - 20 && y >= top + 20 && y < top + side - 20
            return inCode ? value : outside(x, y)
        }
    }

    /// Where `KioskDecoderTests.scene` has its code's finder patterns (5 px modules; a 4-module quiet zone):
    /// top left, top right, bottom left.
    static var centres: [SIMD2<Double>] {
        let width = Double(KioskDecoderTests.code.image.width)
        let origin = SIMD2((640 - 5 * width) / 2, (480 - 5 * width) / 2)
        let near = 5 * 7.5
        let far = 5 * (width - 7.5)
        return [origin + SIMD2(near, near), origin + SIMD2(far, near), origin + SIMD2(near, far)]
    }

    static var triangle: FinderTriangle {
        FinderTriangle(corner: centres[0], p: centres[1], q: centres[2], module: 5)
    }

    @Test func aCodesFinderPatternsAreSquareUprightTurnedAndBlurred() {
        let upright = KioskDecoderTests.scene
        let marks = Self.centres.map { Finder(centre: $0, module: 5, darkCentre: true) }
        #expect(marks.allSatisfy { FinderPatternGate.isSquare($0, in: upright) })
        // Blurred by a 5x5 box: the corners of each ring rounded off, where the diagonals cross them.
        let blurred = TestScenes.map(upright) { x, y, _ in
            var sum = 0
            for dy in -2...2 {
                for dx in -2...2 { sum += Int(upright[min(639, max(0, x + dx)), min(479, max(0, y + dy))]) }
            }
            return UInt8(sum / 25)
        }
        #expect(marks.allSatisfy { FinderPatternGate.isSquare($0, in: blurred) })
        // Turned 30 degrees (the gate measures 5 / cos 30 px a module across a row), each pixel the mean of 4x4
        // samples, with noise.
        let image = KioskDecoderTests.code.image
        let width = image.width - 8
        let modules = GrayFrame(
            width: width, height: width,
            pixels: (4..<(image.width - 4)).flatMap { y in (4..<(image.width - 4)).map { x in image[x, y] } })
        let along = SIMD2(0.866, 0.5) * 5
        let down = SIMD2(-along.y, along.x)
        let origin = SIMD2(320.0, 240.0) - (along + down) * Double(width) / 2
        let n = Double(width)
        let turned = TestScenes.drawn(
            modules, at: [origin, origin + along * n, origin + down * n, origin + (along + down) * n], width: 640,
            height: 480)
        let turnedMarks = [(3.5, 3.5), (n - 3.5, 3.5), (3.5, n - 3.5)].map { column, row in
            Finder(centre: origin + along * column + down * row, module: 5 / 0.866, darkCentre: true)
        }
        #expect(turnedMarks.allSatisfy { FinderPatternGate.isSquare($0, in: turned) })
    }

    @Test func aCheckerboardsSquaresAndAStripeAt45DegreesAreNotSquareMarks() {
        // A mark as the gate would take it at the centre of a dark square of 15 px: along either diagonal the dark
        // runs on through the corners into the next dark squares.
        let checkerboard = TestScenes.map(GrayFrame(width: 640, height: 480, fill: 0)) { x, y, _ in
            (x / 15 + y / 15) % 2 == 0 ? 30 : 225
        }
        let square = Finder(centre: SIMD2(307.5, 247.5), module: 5, darkCentre: true)
        #expect(checkerboard[307, 247] == 30)
        #expect(!FinderPatternGate.isSquare(square, in: checkerboard))
        // Stripes at 45 degrees, 21 px across a row (as a mark's 3-module centre of 7 px modules): one diagonal runs
        // along the dark stripe to the frame's edge.
        let stripes = TestScenes.map(GrayFrame(width: 640, height: 480, fill: 0)) { x, y, _ in
            ((x + y) / 21) % 2 == 0 ? 30 : 225
        }
        let onStripe = Finder(centre: SIMD2(320, 320.5), module: 7, darkCentre: true)
        #expect(stripes[320, 320] == 30)
        #expect(!FinderPatternGate.isSquare(onStripe, in: stripes))
    }

    @Test func aCodeHasItsQuietZonePastAllSixOuterSidesPrintAroundItHasNone() {
        let plain = KioskDecoderTests.scene
        #expect(FinderPatternGate.quietSides(of: Self.triangle, by: .oneShade, in: plain) == 6)
        #expect(FinderPatternGate.quietSides(of: Self.triangle, by: .unmixed, in: plain) == 6)
        // The same code amid blocks of print from one module past its finder patterns on: none of the six sides.
        let amid = Self.code(amid: TestScenes.blocks)
        #expect(FinderPatternGate.quietSides(of: Self.triangle, by: .oneShade, in: amid) == 0)
        #expect(FinderPatternGate.quietSides(of: Self.triangle, by: .unmixed, in: amid) == 0)
    }

    @Test func aWhiteMarkerMeshInADimCodesQuietZoneIsUnmixedButNotOneShade() {
        // Ink 5, paper 60 in a dim room; a mesh of white marker lines (255) over the quiet zone, as BoofCV's
        // bright-spot photos draw them: no ink there, but steps of 195 grey levels against a contrast of 55.
        let dim = TestScenes.map(KioskDecoderTests.scene) { _, _, value in value < 128 ? 5 : 60 }
        let marked = Self.code(amid: { x, y in x % 8 < 3 || y % 8 < 3 ? 254 : 128 })
        let meshed = TestScenes.map(marked) { _, _, value in value == 254 ? 255 : (value < 128 ? 5 : 60) }
        #expect(FinderPatternGate.quietSides(of: Self.triangle, by: .oneShade, in: dim) == 6)
        #expect(FinderPatternGate.quietSides(of: Self.triangle, by: .oneShade, in: meshed) == 0)
        #expect(FinderPatternGate.quietSides(of: Self.triangle, by: .unmixed, in: meshed) == 6)
    }

    @Test func quietSidesAreCountedOnlyAsFarAsTheAnswerNeeds() {
        let amid = Self.code(amid: TestScenes.blocks)
        for (frame, rule) in [
            (KioskDecoderTests.scene, QuietZone.oneShade), (KioskDecoderTests.scene, .unmixed), (amid, .oneShade),
        ] {
            let quiet = FinderPatternGate.quietSides(of: Self.triangle, by: rule, in: frame)
            for wanted in 1...6 {
                #expect(
                    FinderPatternGate.hasQuietSides(wanted, of: Self.triangle, by: rule, in: frame) == (quiet >= wanted)
                )
            }
        }
    }

    /// After a read, three marks placed as a code's corners count as another code only when two of them at least are
    /// square: beside the code read, three bare finder patterns with a quiet zone past them do, and so do they with
    /// one pattern's diagonals run on past its outer ring (as a plaid's or a stripe's run on), but not with two so.
    @Test func anotherCodeAfterAReadNeedsTwoOfItsThreeMarksSquare() throws {
        let code = TestScenes.place(KioskDecoderTests.code.image, scale: 4, width: 320, height: 480)
        let module = 5
        let origins = [SIMD2(400, 90), SIMD2(525, 90), SIMD2(400, 215)]
        // Three finder patterns 25 modules apart on a white page right of the code; `runOn` of them with their outer
        // ring's four corners drawn on along the diagonals, a stroke a module wide to 5.5 modules from the centre
        // both ways (rows and columns through the centres, and the quiet zone's samples, untouched).
        func frame(runOn: [Int]) -> GrayFrame {
            TestScenes.map(GrayFrame(width: 640, height: 480, fill: 255)) { x, y, _ in
                if x < 320 { return code[x, y] }
                for (index, origin) in origins.enumerated() {
                    let (dx, dy) = (x - origin.x, y - origin.y)
                    guard dx >= -2 * module, dx < 9 * module, dy >= -2 * module, dy < 9 * module else { continue }
                    // Twice the distance from the pattern's centre, in pixels, across and down.
                    let (ax, ay) = (abs(2 * dx + 1 - 7 * module), abs(2 * dy + 1 - 7 * module))
                    if runOn.contains(index), abs(ax - ay) < 2 * module, min(ax, ay) >= 5 * module,
                        max(ax, ay) < 11 * module
                    {
                        return 0
                    }
                    let ring = max(abs((dx + 2 * module) / module - 5), abs((dy + 2 * module) / module - 5))
                    return ring <= 1 || ring == 3 ? 0 : 255
                }
                return 255
            }
        }
        let plain = frame(runOn: [])
        let read = try #require(ZXingReader().sightings(plain).first { $0.corners.allSatisfy { $0.x < 320 } })
        func look(_ frame: GrayFrame) -> (square: Int, another: Bool) {
            var images = PassImages(source: frame, maxSide: DecoderSettings().maxSide)
            let square = images.squareFinders().filter { mark in
                origins.contains { origin in
                    let d = mark.centre - SIMD2(Double(origin.x), Double(origin.y)) - 3.5 * Double(module)
                    return (d * d).sum() <= Double(module * module)
                }
            }
            return (square.count, images.showsAnotherCode(outside: [read]))
        }
        #expect(look(plain) == (3, true))
        #expect(look(frame(runOn: [1])) == (2, true))
        #expect(look(frame(runOn: [1, 2])) == (1, false))
    }

    @Test func anotherCodeAfterAReadMayShowOneOfItsFinderPatternsAslant() throws {
        // Right of the pass: a card with a code, light on dark (which only a later pass reads), seen at a slant: the
        // code's top left corner at the card's near bottom left, its top right corner far up, its bottom left corner
        // near on the right. Its two near finder patterns are upright and square; the third, where the card slants
        // most across the rows, is square but aslant (its column far shorter than its row), a mark the gate counts
        // only for the grids. Beside a read it still places a code's third corner.
        let other = try QRCodeRenderer.render("SECOND CODE", moduleSize: 1, quietZone: 4)
        let card = TestScenes.drawn(
            other.image, at: [SIMD2(380, 460), SIMD2(400, 170), SIMD2(620, 430), SIMD2(580, 170)], width: 640,
            height: 480)
        let pass = TestScenes.place(KioskDecoderTests.code.image, scale: 4, width: 320, height: 480)
        let frame = TestScenes.map(card) { x, y, value in x < 320 ? pass[x, y] : 255 - value }
        let read = ZXingReader().sightings(frame)
        #expect(read.count == 1)
        var images = PassImages(source: frame, maxSide: DecoderSettings().maxSide)
        let marks = images.allFinders().filter { $0.centre.x > 330 }
        let (near, far) = (SIMD2(441.0, 372.0), SIMD2(561.0, 361.0))
        func at(_ point: SIMD2<Double>) -> (Finder) -> Bool {
            { mark in ((mark.centre - point) * (mark.centre - point)).sum() <= 36 }
        }
        #expect(marks.contains { at(near)($0) && !$0.isAslant && FinderPatternGate.isSquare($0, in: frame) })
        #expect(marks.contains { at(far)($0) && $0.isAslant && FinderPatternGate.isSquare($0, in: frame) })
        let another = images.showsAnotherCode(outside: read)
        #expect(another)
        let found = KioskDecoder().decode(frame)
        #expect(found.map(\.payload) == [KioskDecoderTests.payload, Array("SECOND CODE".utf8)])
    }
}
