import KioskCore
import KioskDecoding
import QREncoding
import Testing

@testable import KioskScenes

/// Busy things in view (patterned clothing, print, a keyboard, moire, other barcodes) must neither read as a
/// pass nor cost the decoder its whole cascade.
@Suite struct SceneClutterTests {
    static let code = try! QRCodeRenderer.render("HTTPS://PASS.EXAMPLE.ORG/P/ABCDEFGHJKMNPQRS")

    @Test func everyKindOfClutterIsDrawnAndReadsAsNothing() {
        var rng = SplitMix64(seed: 21)
        for kind in SceneClutter.allCases {
            var scene = SceneImage(width: 640, height: 480, fill: 128)
            for _ in 0..<3 { kind.draw(into: &scene, using: &rng) }
            let frame = scene.grayFrame()
            #expect(frame.pixels.contains { $0 < 100 } && frame.pixels.contains { $0 > 150 }, "\(kind) drawn")
            #expect(KioskDecoder().decode(frame).isEmpty, "\(kind) read as a code")
        }
        // The other barcodes are real ones: zxing-cpp's writer draws them from their text.
        #expect(BarcodeWriter.draw(.ean13, "400638133393") != nil)
        #expect(BarcodeWriter.draw(.dataMatrix, "LABEL 42") != nil)
        #expect(BarcodeWriter.draw(.pdf417, "ID CARD") != nil)
        #expect(BarcodeWriter.draw(.ean13, "not digits") == nil)
    }

    @Test func aPassAmongBusyThingsStopsTheCascadeAtItsReadUnlessThreeMarksPlacedAsACodesLieOutside() {
        var rng = SplitMix64(seed: 23)
        let decoder = KioskDecoder()
        let gate = FinderPatternGate()
        let payload = Array("HTTPS://PASS.EXAMPLE.ORG/P/ABCDEFGHJKMNPQRS".utf8)
        var read = 0
        var wentOn = 0
        var marksOutside = 0
        for _ in 0..<20 {
            let frame = DoorScenes.render(
                .plain, code: Self.code.image, moduleSize: 8, severity: 0.5, clutter: 3, rng: &rng)
            let found = decoder.decode(frame)
            #expect(found.allSatisfy { $0.payload == payload })
            guard !found.isEmpty, let sighting = ZXingReader().sightings(frame).first else { continue }
            read += 1
            if decoder.passesTried.count > 1 { wentOn += 1 }
            // The rule of before: any two finder-like marks outside the code read sent the frame down the cascade.
            let outside = gate.finders(frame).filter { !sighting.covers($0.centre) }
            if outside.count >= 2 { marksOutside += 1 }
        }
        #expect(read >= 18)
        #expect(marksOutside >= read / 2, "busy frames: marks outside the code on most")
        #expect(wentOn * 2 <= marksOutside, "the cascade went on for \(wentOn) of \(read) frames")
        // Past a read, three marks placed as a code's count only with its quiet zone past them and two of them square,
        // two only if square and joined, with the quiet zone past two sides (`kiosk-bench decoder --timing-only`: 29 of
        // 120 cluttered frames with a code went on before the quiet zone, 9 with it, 4 with two square marks of three).
        #expect(wentOn <= 1, "the cascade went on for \(wentOn) of \(read) frames")
    }

    @Test func printAndCheckerboardsAloneRarelyCostTheWholeCascade() {
        // Lines of print and a turned checkerboard alternate along many lines between two finder-like marks, as a
        // code's timing pattern does, but the alternation goes on through the marks; a code's stops at its finder
        // patterns. Before that was asked, 17 of 30 frames with print and 15 of 30 with a checkerboard went
        // through the whole cascade (32 of 60; under 20 after). And a checkerboard's marks are not square, nor do
        // print's have a code's quiet zone past them (`PassImages.showsACode`): none of 60 since.
        let decoder = KioskDecoder()
        var whole = 0
        for kind in [SceneClutter.printedText, .checkerboard] {
            var rng = SplitMix64(seed: 99)
            for _ in 0..<30 {
                var scene = SceneBackground.cluttered(width: 640, height: 480, using: &rng)
                for _ in 0..<2 { kind.draw(into: &scene, using: &rng) }
                let frame = DoorCondition.plain.recipe(severity: 0.5, using: &rng).scaled(toFrameHeight: 480).camera
                    .capture(scene, using: &rng)
                #expect(decoder.decode(frame).isEmpty)
                if decoder.ranTheWholeCascade { whole += 1 }
            }
        }
        #expect(whole <= 1, "the whole cascade on \(whole) of 60 frames without a code")
    }
}
