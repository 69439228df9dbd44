import Foundation
import GrayImage
import ImageFiles
import KioskCore
import QREncoding
import Testing

@testable import KioskDecoding

@Suite struct KioskDecoderTests {
    static let text = "HTTPS://PASS.EXAMPLE.ORG/P/" + QRCodeRendererTests.base32Token
    static var payload: [UInt8] { Array(text.utf8) }
    /// The code at one pixel per module, with a 4-module quiet zone.
    static let code = try! QRCodeRenderer.render(text, moduleSize: 1, quietZone: 4)
    /// A 640×480 camera frame with the code at 5 px per module.
    static let scene = TestScenes.place(code.image, scale: 5, width: 640, height: 480)

    let decoder = KioskDecoder()
    /// zbar's passes alone, the cascade of before zxing-cpp: what each preprocessing adds to zbar.
    let zbarCascade = KioskDecoder(
        settings: DecoderSettings(passes: [
            .zbar(.full), .zbar(.half), .zbar(.normalized), .zbar(.quarter), .zbar(.inverted),
        ]))
    let bareZBar = ZBarScanner()

    @Test func plainCodeIsReadByTheFullPass() {
        #expect(decoder.decode(Self.scene).withoutPlaces == [DecodedCode(payload: Self.payload, foundBy: "zxing:full")])
        #expect(
            zbarCascade.decode(Self.scene).withoutPlaces == [DecodedCode(payload: Self.payload, foundBy: "zbar:full")])
    }

    @Test func zbarOnEveryOtherLineReadsCodesOfModulesWideEnoughForIt() {
        // 5 px modules: every other line crosses each module's row and column at least twice.
        #expect(ZBarScanner(lineStep: 2).scan(Self.scene) == [Self.payload])
        // 2 px modules: zbar on every line reads the code, on every other line it sees too little of each finder
        // pattern (why the cascade scans every other line only where zxing-cpp reads the same image at every line).
        let fine = TestScenes.place(Self.code.image, scale: 2, width: 640, height: 480)
        #expect(bareZBar.scan(fine) == [Self.payload])
        #expect(ZBarScanner(lineStep: 2).scan(fine).isEmpty)
    }

    @Test func codeFillingTheFrameBeyondItsQuietZoneIsRead() {
        // The symbol's 57 modules span the full 480 rows: no quiet zone at the top or bottom.
        let scale = 480 / Double(Self.code.moduleCount)
        let filling = TestScenes.place(Self.code.image, scale: scale, width: 640, height: 480)
        #expect(filling[85, 1] == 0 && filling[85, 478] == 0)  // finder patterns touch the top and bottom
        #expect(decoder.decode(filling).map(\.payload) == [Self.payload])
    }

    @Test func invertedCodeNeedsTheInvertedPass() {
        let inverted = TestScenes.map(Self.scene) { _, _, value in 255 - value }
        #expect(bareZBar.scan(inverted).isEmpty)
        #expect(zbarCascade.decode(inverted, pass: .zbar(.full)).isEmpty)
        #expect(
            zbarCascade.decode(inverted).withoutPlaces == [DecodedCode(payload: Self.payload, foundBy: "zbar:inverted")]
        )
        #expect(decoder.decode(inverted).map(\.payload) == [Self.payload])
    }

    @Test func darkLowContrastCodeIsRead() {
        let dim = TestScenes.map(Self.scene) { _, _, value in value < 128 ? 20 : 34 }
        #expect(decoder.decode(dim).map(\.payload) == [Self.payload])
    }

    @Test func brightGradientAcrossTheCodeIsRead() {
        let washed = TestScenes.map(Self.scene) { x, _, value in
            TestScenes.pixel(Double(value) / 3 + Double(x) * 255 / 640)
        }
        #expect(decoder.decode(washed).map(\.payload) == [Self.payload])
    }

    @Test func screenMoireDefeatsBareZBarButNotTheHalfPass() {
        // A photographed screen: a dark pixel grid every third row and column over the code.
        let code = TestScenes.place(Self.code.image, scale: 6, width: 640, height: 480)
        let screen = TestScenes.map(code) { x, y, value in
            TestScenes.pixel(Double(value) * (x % 3 == 0 || y % 3 == 0 ? 0.35 : 1) * 0.8 + 30)
        }
        #expect(bareZBar.scan(screen).isEmpty)
        #expect(zbarCascade.decode(screen).withoutPlaces == [DecodedCode(payload: Self.payload, foundBy: "zbar:half")])
        #expect(decoder.decode(screen).map(\.payload) == [Self.payload])
    }

    @Test func noisyLowContrastCodeIsReadAfterAveragingOrNormalising() {
        // Contrast 20 grey levels, blurred by the lens, with ±8 levels of sensor noise.
        let sharp = TestScenes.place(Self.code.image, scale: 8, width: 1280, height: 960)
        let blurred = ImagePreprocessing.downscaled(sharp, by: 2)
        var noise = TestScenes.noise(width: 640, height: 480, seed: 3).pixels.makeIterator()
        let noisy = TestScenes.map(blurred) { _, _, value in
            TestScenes.pixel(100 + Double(value) * 20 / 255 + Double(noise.next()!) / 16 - 8)
        }
        let found = decoder.decode(noisy)
        #expect(found.map(\.payload) == [Self.payload])
        #expect(bareZBar.scan(noisy).isEmpty)
    }

    @Test func weakCodeUnderGlareNeedsTheNormalizedPass() {
        // 3 px modules (too fine to survive halving), 10 grey levels of contrast, a bright glare spot.
        let small = TestScenes.place(Self.code.image, scale: 3, width: 640, height: 480)
        let glare = TestScenes.map(small) { x, y, value in
            let distance = Double((x - 300) * (x - 300) + (y - 240) * (y - 240)).squareRoot()
            return TestScenes.pixel((value < 128 ? 0 : 10) + 200 - distance / 2)
        }
        #expect(bareZBar.scan(glare).isEmpty)
        #expect(zbarCascade.decode(glare, pass: .zbar(.half)).isEmpty)
        #expect(
            zbarCascade.decode(glare).withoutPlaces == [DecodedCode(payload: Self.payload, foundBy: "zbar:normalized")])
        #expect(decoder.decode(glare).map(\.payload) == [Self.payload])
    }

    @Test func codeHalfBurntOutByABrightSpotNeedsTheThresholdedPass() {
        // 4 px modules, 20 grey levels of contrast, a bright spot that saturates the code's middle: what it leaves
        // is only module edges, which a 9 px local threshold keeps and the engines' own binarisers do not.
        let small = TestScenes.place(Self.code.image, scale: 4, width: 640, height: 480)
        let burnt = TestScenes.map(small) { x, y, value in
            let dx = Double(x - 290)
            let dy = Double(y - 220)
            return TestScenes.pixel(60 + (value < 128 ? 0 : 20) + 300 * exp(-(dx * dx + dy * dy) / 7200))
        }
        let before = KioskDecoder(
            settings: DecoderSettings(
                passes: Array(DecoderSettings.defaultPasses.prefix { $0.image != .thresholded }), gatedFrom: 1))
        #expect(!before.settings.passes.contains { $0.image == .thresholded })
        #expect(before.decode(burnt).isEmpty)
        #expect(
            decoder.decode(burnt).withoutPlaces == [DecodedCode(payload: Self.payload, foundBy: "zbar:thresholded")])
    }

    @Test func codeWithAFinderPatternUnderGlareIsRedrawnFromItsGrid() {
        // 5 px modules; glare saturates the top-left finder pattern and the modules around it. Both engines find a
        // code by its three finder patterns: every pass before reads nothing. The gate sees the other two with the
        // timing patterns from where the third is, the grid is laid from them, and the redrawn code has its finder
        // patterns drawn as every code has them; error correction restores the data under the glare.
        let glare = TestScenes.map(Self.scene) { x, y, value in
            let dx = Double(x - 195)
            let dy = Double(y - 115)
            return TestScenes.pixel(Double(value) * 0.7 + 40 + 400 * exp(-(dx * dx + dy * dy) / 500))
        }
        let before = KioskDecoder(
            settings: DecoderSettings(
                passes: Array(DecoderSettings.defaultPasses.prefix { $0.image != .resampled }), gatedFrom: 1))
        #expect(!before.settings.passes.contains { $0.image == .resampled })
        #expect(before.decode(glare).isEmpty)
        #expect(decoder.decode(glare).withoutPlaces == [DecodedCode(payload: Self.payload, foundBy: "zbar:resampled")])
    }

    @Test func threeFinderPatternsWithoutTimingPatternsGetTheWholeCascadeOnlyWithAQuietZone() {
        // Three finder patterns placed as a code's corners, 30 modules apart, nothing between them: no timing
        // patterns. On a blank page they are square and have a code's quiet zone past them (a code whose timing
        // patterns blur or glare hide): the whole cascade, and nothing is read. Amid print from one module past them
        // on (a page, a shirt), only the grids get a look, find no timing patterns either, and nothing is read.
        func marks(on page: (Int, Int) -> UInt8) -> GrayFrame {
            var frame = TestScenes.map(GrayFrame(width: 640, height: 480, fill: 0)) { x, y, _ in page(x, y) }
            for (left, top) in [(150, 90), (300, 90), (150, 240)] {
                for y in -5..<40 {
                    for x in -5..<40 {
                        let ring = max(abs((x + 5) / 5 - 4), abs((y + 5) / 5 - 4))
                        frame[left + x, top + y] = ring <= 1 || ring == 3 ? 30 : 210
                    }
                }
            }
            return frame
        }
        let blank = marks { _, _ in 210 }
        #expect(FinderPatternGate.formACode(FinderPatternGate().finders(blank)))
        #expect(decoder.decode(blank).isEmpty)
        #expect(decoder.passesTried == decoder.settings.passes)
        let amid = marks(on: TestScenes.blocks)
        #expect(FinderPatternGate.formACode(FinderPatternGate().finders(amid)))
        #expect(decoder.decode(amid).isEmpty)
        #expect(decoder.passesTried == [.zxing(.full), .zbar(.resampled), .zxing(.resampled)])
    }

    @Test func downscaledAndUpscaledCodesAreRead() {
        let small = TestScenes.place(Self.code.image, scale: 2.5, width: 320, height: 240)
        #expect(decoder.decode(small).map(\.payload) == [Self.payload])
        let blocky = TestScenes.place(small, scale: 2, width: 640, height: 480)
        #expect(decoder.decode(blocky).map(\.payload) == [Self.payload])
    }

    @Test func bigPhotoIsPreScaledToMaxSide() {
        // 2600×1950 with the code filling most of its height: pre-scaled by 3 to 866×650.
        let photo = TestScenes.place(Self.code.image, scale: 28, width: 2600, height: 1950, fill: 230)
        #expect(decoder.images(for: photo, pass: .zbar(.full)).map(\.width) == [866])
        #expect(decoder.decode(photo).map(\.payload) == [Self.payload])
    }

    @Test func jpegCompressedCodeIsRead() throws {
        let jpeg = try ImageFile.encodeJPEG(Self.scene, quality: 30)
        let decoded = try ImageFile.decode(data: jpeg, name: "scene.jpg")
        #expect(decoder.decode(decoded).map(\.payload) == [Self.payload])
    }

    @Test func twoCopiesOfOneCodeAreOneVerdictAndTwoCodesInView() {
        let single = TestScenes.place(Self.code.image, scale: 4, width: 320, height: 480)
        var pair = GrayFrame(width: 640, height: 480, fill: 255)
        for y in 0..<480 {
            for x in 0..<320 {
                pair[x, y] = single[x, y]
                pair[x + 320, y] = single[x, y]
            }
        }
        // The door: one verdict per payload.
        #expect(decoder.decode(pair).withoutPlaces == [DecodedCode(payload: Self.payload, foundBy: "zxing:full")])
        #expect(zbarCascade.decode(pair).withoutPlaces == [DecodedCode(payload: Self.payload, foundBy: "zbar:full")])
        // `kioskctl decode` and the benchmarks: both codes, each where it is (one centred in each half).
        for cascade in [decoder, zbarCascade] {
            let every = cascade.everyCode(in: pair)
            #expect(every.map(\.payload) == [Self.payload, Self.payload])
            let centres = every.compactMap(\.centre)
            #expect(centres.count == 2)
            #expect(Set(centres.map { Int($0.x) / 320 }) == [0, 1])
            #expect(
                centres.allSatisfy { abs($0.x.truncatingRemainder(dividingBy: 320) - 160) < 8 && abs($0.y - 240) < 8 })
        }
    }

    @Test func noiseAndBlankFramesDecodeToNothing() {
        #expect(decoder.decode(TestScenes.noise(width: 640, height: 480)).isEmpty)
        #expect(decoder.decode(GrayFrame(width: 640, height: 480, fill: 128)).isEmpty)
        #expect(decoder.decode(GrayFrame(width: 0, height: 0, pixels: [])).isEmpty)
    }

    @Test func passesRunInTheConfiguredOrderOnly() {
        var settings = DecoderSettings()
        settings.passes = [.zbar(.full)]
        let fullOnly = KioskDecoder(settings: settings)
        let inverted = TestScenes.map(Self.scene) { _, _, value in 255 - value }
        #expect(fullOnly.decode(inverted).isEmpty)
        settings.passes = [.zbar(.inverted), .zxing(.full)]
        #expect(KioskDecoder(settings: settings).decode(Self.scene).first?.foundBy == "zxing:full")
        #expect(KioskDecoder(settings: settings).decode(inverted).first?.foundBy == "zbar:inverted")
    }

    @Test func theFinderGateSeesCodesInEitherPolarityAndDimLightButNotNoise() {
        let gate = FinderPatternGate()
        #expect(gate.finderCount(Self.scene) >= 3, "three finder patterns in a plain code")
        let inverted = TestScenes.map(Self.scene) { _, _, value in 255 - value }
        #expect(gate.isCodeLike(inverted))
        let dim = TestScenes.map(Self.scene) { _, _, value in value < 128 ? 20 : 34 }
        #expect(gate.isCodeLike(dim))
        #expect(!gate.isCodeLike(GrayFrame(width: 640, height: 480, fill: 128)))
        // A smooth light gradient (a wall under a lamp) has no finder patterns.
        #expect(
            !gate.isCodeLike(
                TestScenes.map(GrayFrame(width: 640, height: 480, fill: 0)) { x, y, _ in
                    TestScenes.pixel(60 + Double(x) / 4 + Double(y) / 8)
                }))
        #expect(!gate.isCodeLike(GrayFrame(width: 0, height: 0, pixels: [])))
        // Far away: 2 px modules.
        let small = TestScenes.place(Self.code.image, scale: 2, width: 640, height: 480)
        #expect(gate.isCodeLike(small))
    }

    @Test func passesAfterTheGateRunOnlyOnCodeLikeFrames() {
        // zbar on the frame as it is cannot read light-on-dark; behind the gate, the inverted pass still reads it,
        // because the gate looks for finder patterns in both polarities.
        let gated = KioskDecoder(settings: DecoderSettings(passes: [.zbar(.full), .zbar(.inverted)], gatedFrom: 1))
        let inverted = TestScenes.map(Self.scene) { _, _, value in 255 - value }
        #expect(gated.decode(inverted).withoutPlaces == [DecodedCode(payload: Self.payload, foundBy: "zbar:inverted")])
        #expect(gated.decode(TestScenes.noise(width: 640, height: 480)).isEmpty)
    }

    @Test func theQuickLookAtAStillSceneGoesPastTheGateOnCodeLikeFrames() {
        // A pass laid still under the camera gets only quick looks. zxing-cpp, the default's first pass, does not
        // read light-on-dark; the gate sees its finder patterns, so the look goes on to zxing:inverted. Without a
        // gate the look is the first pass alone (found by the hardware-in-the-loop test: a still pass that only
        // zbar read was never admitted).
        let inverted = TestScenes.map(Self.scene) { _, _, value in 255 - value }
        #expect(
            decoder.decodeQuickly(inverted).withoutPlaces == [
                DecodedCode(payload: Self.payload, foundBy: "zxing:inverted")
            ])
        #expect(decoder.decodeQuickly(TestScenes.noise(width: 640, height: 480)).isEmpty)
        #expect(zbarCascade.decodeQuickly(inverted).isEmpty)
        #expect(zbarCascade.decodeQuickly(Self.scene).map(\.payload) == [Self.payload])
    }

    @Test func theDefaultCascadeReadsWhatEitherEngineAloneMisses() {
        // Light-on-dark (zxing-cpp 1.4 reads no inverted codes, zbar neither) and a weak code under glare.
        let inverted = TestScenes.map(Self.scene) { _, _, value in 255 - value }
        #expect(ZXingReader().scan(inverted).isEmpty && bareZBar.scan(inverted).isEmpty)
        #expect(decoder.decode(inverted).map(\.payload) == [Self.payload])
    }

    @Test func zxingReadsOnlyWhatItsErrorCorrectionAccepts() {
        #expect(ZXingReader().scan(Self.scene) == [Self.payload])
        // Half the symbol overwritten: too many errors for any correction; nothing, never a wrong payload.
        let damaged = TestScenes.map(Self.scene) { x, _, value in x > 320 ? (x % 7 < 3 ? 0 : 255) : value }
        #expect(ZXingReader().scan(damaged).allSatisfy { $0 == Self.payload })
        #expect(decoder.decode(damaged).allSatisfy { $0.payload == Self.payload })
    }

    @Test func aSecondCodeThatOnlyALaterPassReadsIsFoundWhenItsFindersLieOutsideTheFirst() throws {
        // Left: the pass, dark on light. Right: another code, light on dark, which only an inverted pass reads.
        let pair = try Self.passBesideASecondCode(scale: 6) { _, _, value in 255 - value }
        let found = decoder.decode(pair)
        #expect(found.map(\.payload) == [Self.payload, Array("SECOND CODE".utf8)])
        #expect(found.map(\.foundBy) == ["zxing:full", "zxing:inverted"])
        // Without a gate the first pass that reads anything is the answer.
        let ungated = KioskDecoder(settings: DecoderSettings(passes: [.zxing(.full), .zbar(.inverted)]))
        #expect(ungated.decode(pair).map(\.payload) == [Self.payload])
        // One code alone: the cascade stops at the first read.
        #expect(decoder.decode(Self.scene).withoutPlaces == [DecodedCode(payload: Self.payload, foundBy: "zxing:full")])
    }

    @Test func aSecondCodeWithOneFinderWashedOutIsLookedForOnItsTimingPatterns() throws {
        // Left: the pass. Right: another code of 30 grey levels under a bright spot that hides its top-right finder
        // pattern from the gate: two marks outside the first code, not three, but the timing pattern between them
        // is the gate's own evidence of a code, so the cascade goes on and a later pass reads it. (The spot is
        // centred 20 px right of that pattern's centre and 30 px above it: centred farther off, it left a faint outer
        // ring, and the gate sees a pattern through that, `FinderPatternGate.hasFaintRing`.)
        let pair = try Self.passBesideASecondCode(scale: 5) { x, y, value in
            let dx = Double(x) - 225
            let dy = Double(y) - 165
            return TestScenes.pixel(60 + (value < 128 ? 0 : 30) + 300 * exp(-(dx * dx + dy * dy) / 1250))
        }
        let outside = FinderPatternGate().finders(pair).filter { $0.centre.x > 330 }
        #expect(!FinderPatternGate.formACode(outside))
        #expect(TimingPattern.joinsTwo(of: outside, in: pair))
        let found = decoder.decode(pair)
        #expect(found.map(\.payload) == [Self.payload, Array("SECOND CODE".utf8)])
        #expect(found.first?.foundBy == "zxing:full")
    }

    @Test func aFrameOfOnlyCornerMarksThatReadsACodeGetsTheWholeCascadeOnEvidenceOfAnother() throws {
        // Left: a dim code (ink 5, paper 60, 8 px modules) with a white marker mesh over the paper around it (the
        // quiet zone is not one shade: no evidence of a code before a read, only three marks placed as a code's
        // corners), which the grids read. Right: a light-on-dark card at a slant, which only the inverted pass reads.
        // The grids' read shows the frame holds codes, and the card's marks are evidence of another: the passes a
        // frame of only corner marks skips run after the grids.
        let left = try QRCodeRenderer.render("THIRD CODE", moduleSize: 1, quietZone: 4)
        let placed = TestScenes.place(left.image, scale: 8, width: 320, height: 480)
        // The code's 21 modules span 76 to 244 across and 156 to 324 down; the mesh reaches 26 px past them.
        let other = try QRCodeRenderer.render("SECOND CODE", moduleSize: 1, quietZone: 4)
        let card = TestScenes.drawn(
            other.image, at: [SIMD2(380, 460), SIMD2(400, 170), SIMD2(620, 430), SIMD2(580, 170)], width: 640,
            height: 480)
        let frame = TestScenes.map(card) { x, y, value in
            guard x < 320 else { return 255 - value }
            let inCode = (76..<244).contains(x) && (156..<324).contains(y)
            let nearCode = (50..<270).contains(x) && (130..<350).contains(y)
            if !inCode, nearCode, x % 8 < 3 || y % 8 < 3 { return 255 }
            return placed[x, y] < 128 ? 5 : 60
        }
        let found = decoder.decode(frame)
        #expect(found.map(\.payload) == [Array("THIRD CODE".utf8), Array("SECOND CODE".utf8)])
        #expect(found.map(\.foundBy) == ["zbar:resampled", "zxing:inverted"])
        #expect(decoder.passesTried.prefix(3) == [.zxing(.full), .zbar(.resampled), .zxing(.resampled)])
    }

    /// A 640x480 frame: the pass at 4 px per module on the left half, and on the right half a code of "SECOND CODE"
    /// at `scale` px per module, each of its pixels through `right(x, y, value)` (x, y within the right half).
    static func passBesideASecondCode(scale: Double, _ right: (Int, Int, UInt8) -> UInt8) throws -> GrayFrame {
        let other = try QRCodeRenderer.render("SECOND CODE", moduleSize: 1, quietZone: 4)
        let left = TestScenes.place(code.image, scale: 4, width: 320, height: 480)
        let second = TestScenes.place(other.image, scale: scale, width: 320, height: 480)
        var pair = GrayFrame(width: 640, height: 480, fill: 255)
        for y in 0..<480 {
            for x in 0..<320 {
                pair[x, y] = left[x, y]
                pair[x + 320, y] = right(x, y, second[x, y])
            }
        }
        return pair
    }

    @Test func enginesSayWhereTheCodeIs() {
        // The code's 57 modules at 5 px, centred in 640x480: about 142 px either side of the centre.
        for sighting in ZXingReader().sightings(Self.scene) + ZBarScanner().sightings(Self.scene) {
            #expect(sighting.payload == Self.payload)
            #expect(sighting.covers(SIMD2(320, 240)) && !sighting.covers(SIMD2(20, 20)))
        }
        #expect(ZXingReader().sightings(Self.scene).count == 1 && ZBarScanner().sightings(Self.scene).count == 1)
    }

    @Test func threeFinderPatternsCountAsACodeOnlyWhenPlacedAsACodesCorners() {
        let gate = FinderPatternGate()
        #expect(FinderPatternGate.formACode(gate.finders(Self.scene)), "a plain code's three corners")
        func finder(_ x: Double, _ y: Double, module: Double = 4, dark: Bool = true) -> Finder {
            Finder(centre: SIMD2(x, y), module: module, darkCentre: dark)
        }
        // A right angle, 50 modules a side; turned 30 degrees; seen in perspective (sides 1.5:1, 70 degrees).
        #expect(FinderPatternGate.formACode([finder(100, 100), finder(300, 100), finder(100, 300)]))
        #expect(FinderPatternGate.formACode([finder(100, 100), finder(273, 200), finder(0, 273)]))
        #expect(FinderPatternGate.formACode([finder(100, 100), finder(400, 100), finder(168, 288)]))
        // In a row (text on a poster); sides 3:1; too close (5 modules); too far (250); polarities or sizes mixed.
        #expect(!FinderPatternGate.formACode([finder(100, 100), finder(300, 100), finder(500, 100)]))
        #expect(!FinderPatternGate.formACode([finder(100, 100), finder(700, 100), finder(100, 300)]))
        #expect(!FinderPatternGate.formACode([finder(100, 100), finder(120, 100), finder(100, 120)]))
        #expect(!FinderPatternGate.formACode([finder(0, 0), finder(1000, 0), finder(0, 1000)]))
        #expect(!FinderPatternGate.formACode([finder(100, 100), finder(300, 100), finder(100, 300, dark: false)]))
        #expect(!FinderPatternGate.formACode([finder(100, 100), finder(300, 100), finder(100, 300, module: 9)]))
        #expect(!FinderPatternGate.formACode([finder(100, 100), finder(300, 100)]))
    }
}

extension [DecodedCode] {
    /// The codes without where they were seen: what a test of which pass read what compares.
    var withoutPlaces: [DecodedCode] { map { DecodedCode(payload: $0.payload, foundBy: $0.foundBy) } }
}
