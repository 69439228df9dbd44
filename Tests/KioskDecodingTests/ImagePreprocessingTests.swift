import GrayImage
import KioskCore
import KioskDecoding
import Testing

@Suite struct ImagePreprocessingTests {
    @Test(arguments: [2, 3, 4, 5])
    func downscaleAveragesBlocksAndDropsTheRemainder(factor: Int) {
        let frame = TestScenes.noise(width: 23, height: 17)
        let small = ImagePreprocessing.downscaled(frame, by: factor)
        #expect(small.width == 23 / factor && small.height == 17 / factor)
        for y in 0..<small.height {
            for x in 0..<small.width {
                var sum = 0
                for dy in 0..<factor {
                    for dx in 0..<factor { sum += Int(frame[x * factor + dx, y * factor + dy]) }
                }
                let area = factor * factor
                #expect(Int(small[x, y]) == (sum + area / 2) / area)
            }
        }
    }

    @Test func scaledToFitUsesTheSmallestIntegerFactor() {
        let photo = GrayFrame(width: 4000, height: 3000, fill: 9)
        #expect(ImagePreprocessing.factorToFit(photo, maxSide: 1280) == 4)
        let fitted = ImagePreprocessing.scaledToFit(photo, maxSide: 1280)
        #expect(fitted.width == 1000 && fitted.height == 750 && fitted.pixels.allSatisfy { $0 == 9 })
        #expect(ImagePreprocessing.factorToFit(GrayFrame(width: 640, height: 480, fill: 0), maxSide: 1280) == 1)
    }

    @Test func invertFlipsEveryPixel() {
        let frame = GrayFrame(width: 3, height: 1, pixels: [0, 100, 255])
        #expect(ImagePreprocessing.inverted(frame).pixels == [255, 155, 0])
    }

    @Test func normalizationFlattensAGradientAndStretchesWeakContrast() {
        // Stripes 4 grey levels apart on a steep ramp: after normalisation the stripes are far apart and
        // the ramp is gone.
        let frame = TestScenes.map(GrayFrame(width: 200, height: 100, fill: 0)) { x, _, _ in
            UInt8(20 + x + (x / 5 % 2) * 4)
        }
        let normalized = ImagePreprocessing.contrastNormalized(frame)
        let dark = (40..<160).filter { $0 / 5 % 2 == 0 }.map { Int(normalized[$0, 50]) }
        let light = (40..<160).filter { $0 / 5 % 2 == 1 }.map { Int(normalized[$0, 50]) }
        #expect(dark.max()! + 20 < light.min()!)
        // A flat frame stays flat mid-grey.
        #expect(
            ImagePreprocessing.contrastNormalized(GrayFrame(width: 50, height: 40, fill: 200)).pixels.allSatisfy {
                $0 == 128
            })
    }

    @Test func localThresholdKeepsEdgesUnderABrightRamp() {
        // Stripes 6 grey levels apart on a ramp far steeper than their contrast: each stripe comes out black or
        // white by its own colour, wherever it lies on the ramp.
        let frame = TestScenes.map(GrayFrame(width: 200, height: 40, fill: 0)) { x, _, _ in
            UInt8(x + (x / 4 % 2) * 6)
        }
        let binary = ImagePreprocessing.locallyThresholded(frame)
        #expect(binary.pixels.allSatisfy { $0 == 0 || $0 == 255 })
        for x in 8..<192 where x % 4 == 1 || x % 4 == 2 {
            #expect(binary[x, 20] == (x / 4 % 2 == 0 ? 0 : 255), "column \(x)")
        }
        // A flat frame is all white: nothing there is darker than its surroundings.
        #expect(
            ImagePreprocessing.locallyThresholded(GrayFrame(width: 30, height: 20, fill: 90)).pixels.allSatisfy {
                $0 == 255
            })
    }
}
