import Foundation
import GrayImage
import Testing

@testable import KioskCore

@Suite struct CapturePolicyTests {
    let t0 = Date(timeIntervalSince1970: 1_000)
    let settings = CapturePolicy.Settings(
        idleFPS: 15, activeFPS: 30, motionThreshold: 8, quietTime: 2, idleDecodeInterval: 2)

    func observe(_ p: inout CapturePolicy, _ motion: Double, _ t: Double) -> DecodeEffort {
        p.observe(motion: motion, at: t0 + t)
    }

    @Test func aStillSceneIsDecodedOnlyNowAndThenAndCheaply() {
        var p = CapturePolicy(settings: settings)
        var efforts: [DecodeEffort] = []
        for i in 0..<150 { efforts.append(observe(&p, 1, Double(i) / 15)) }  // ten still seconds at 15 fps
        #expect(!efforts.contains(.thorough))
        #expect(efforts.filter { $0 == .quick }.count == 5)
        #expect(p.targetFPS(at: t0 + 10) == 15)
    }

    @Test func motionRaisesTheRateAndDecodesEveryFrameUntilQuiet() {
        var p = CapturePolicy(settings: settings)
        _ = observe(&p, 1, 0)
        #expect(observe(&p, 20, 1) == .thorough)
        #expect(p.targetFPS(at: t0 + 1) == 30)
        #expect(observe(&p, 1, 2.5) == .thorough)  // still within quiet_time of the motion
        #expect(p.targetFPS(at: t0 + 3.1) == 15)
        #expect(observe(&p, 1, 3.1) == .skip)  // quiet, and decoded 0.6 s ago
        #expect(observe(&p, 1, 4.6) == .quick)  // the idle look, every 2 s
        #expect(observe(&p, 1, 4.7) == .skip)
    }

    @Test func aCodeInViewKeepsTheDecoderThorough() {
        var p = CapturePolicy(settings: settings)
        _ = observe(&p, 1, 0)
        p.codeSeen(at: t0 + 0.5)
        #expect(observe(&p, 0, 1.5) == .thorough)
        #expect(p.targetFPS(at: t0 + 1.5) == 30)
    }
}

@Suite struct MotionDetectorTests {
    @Test func measuresChangeOnASparseGrid() {
        var d = MotionDetector(step: 8)
        let dark = GrayFrame(width: 640, height: 480, fill: 10)
        #expect(d.measure(dark) == 0)
        #expect(d.measure(dark) == 0)
        let bright = GrayFrame(width: 640, height: 480, fill: 50)
        #expect(d.measure(bright) == 40)
        var moved = bright
        for y in 0..<240 { for x in 0..<640 { moved[x, y] = 90 } }  // the top half changes by 40
        #expect(abs(d.measure(moved) - 20) < 0.5)
    }

    @Test func aNewFrameSizeStartsOver() {
        var d = MotionDetector()
        _ = d.measure(GrayFrame(width: 64, height: 48, fill: 0))
        #expect(d.measure(GrayFrame(width: 32, height: 24, fill: 255)) == 0)
    }
}

@Suite struct PreviewPacingTests {
    @Test func aStillPictureIsRedrawnOnceASecondAMovingOneEveryFrame() {
        var p = CapturePolicy(settings: .init())
        let t0 = Date(timeIntervalSince1970: 5_000)
        var still = 0
        for i in 0..<30 where p.previewDue(motion: 0.2, at: t0 + Double(i) / 15) { still += 1 }
        #expect(still == 2)
        var moving = 0
        for i in 30..<45 where p.previewDue(motion: 3, at: t0 + Double(i) / 15) { moving += 1 }
        #expect(moving == 15)
    }
}
