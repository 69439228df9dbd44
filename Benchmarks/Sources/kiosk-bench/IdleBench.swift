import ArgumentParser
import Foundation
import GrayImage
import KioskCapture
import KioskCore
import KioskDecoding
import KioskFramebuffer
import KioskRuntime
import KioskScenes
import QREncoding

#if canImport(Glibc)
    import Glibc
#endif

/// A kiosk idling on a still scene: the capture loop's own work per frame (conversion from YUYV, motion, the
/// decode gate, the live picture on an in-memory 1280x800 framebuffer), paced at 15 fps, CPU time measured
/// with getrusage. The camera driver's own ioctls run in the kernel and are not included.
struct IdleBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "idle", abstract: "CPU of an idle kiosk; per-frame costs.")

    @Option(help: "Seconds of each idle run.") var seconds = 10.0
    @Option(help: "Frames per second.") var fps = 15.0

    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// YUYV bytes of a grey picture (chroma neutral), as a webcam delivers it.
    static func yuyv(_ frame: GrayFrame) -> [UInt8] {
        var out = [UInt8](repeating: 128, count: frame.width * frame.height * 2)
        for i in 0..<frame.pixels.count { out[2 * i] = frame.pixels[i] }
        return out
    }

    func run() throws {
        var rng = SplitMix64(seed: 5)
        let still = DoorScenes.empty(width: 640, height: 480, rng: &rng)
        let buffer = Self.yuyv(still)
        let display = FramebufferDisplay(
            width: 1280, height: 800, layout: .xrgb8888(width: 1280, stride: 1280 * 4),
            renderer: try ScreenRenderer(fonts: FontSet()))
        let decoder = KioskDecoder()
        let status = DoorStatus(door: "Bench", mode: .auto, camera: .streaming("640x480 YUYV"), fps: 15)
        display.show(.ready(status))

        func convert() -> GrayFrame {
            buffer.withUnsafeBytes {
                GrayConversion.grayFrame(from: $0, fourCC: "YUYV", width: 640, height: 480, bytesPerLine: 1280)!
            }
        }
        /// Runs the per-frame work at `fps` for `seconds`; returns the share of one core used.
        func idle(gated: Bool) -> (cpu: Double, decodes: Int) {
            var policy = CapturePolicy(settings: .init())
            var motion = MotionDetector()
            var decodes = 0
            let start = Date()
            let cpu0 = Self.cpuSeconds()
            var frame = 0
            while true {
                let due = start.addingTimeInterval(Double(frame) / fps)
                let wait = due.timeIntervalSinceNow
                if wait > 0 { Thread.sleep(forTimeInterval: wait) }
                if Date().timeIntervalSince(start) >= seconds { break }
                let image = convert()
                let m = motion.measure(image)
                let effort = gated ? policy.observe(motion: m, at: Date()) : .thorough
                if effort != .skip { decodes += 1 }
                _ = decoder.decode(image, effort: effort)
                if !gated || policy.previewDue(motion: m, at: Date()) { display.showPreview(image, status: status) }
                frame += 1
            }
            return ((Self.cpuSeconds() - cpu0) / Date().timeIntervalSince(start), decodes)
        }
        let gated = idle(gated: true)
        let ungated = idle(gated: false)
        print(
            "## Idle kiosk, still scene, \(Int(fps)) fps for \(Int(seconds)) s (CPU time / wall time, one core = 100 %)\n"
        )
        print(
            table(
                ["loop", "CPU", "decodes", "vs decoding and drawing every frame"],
                [
                    [
                        "kiosk (motion-gated decoding and drawing)", String(format: "%.2f %%", gated.cpu * 100),
                        "\(gated.decodes)", f3(gated.cpu / ungated.cpu),
                    ],
                    [
                        "baseline: every frame decoded and drawn", String(format: "%.2f %%", ungated.cpu * 100),
                        "\(ungated.decodes)", "1.000",
                    ],
                ]))
        print("\n(target: under 2 % of one core; the kernel's V4L2 work is not counted here: see the HIL run)\n")

        // Per-frame costs next to decoding alone, on a frame with a pass in view.
        let fixture = try FixtureEvent(seed: 42, guestCount: 1)
        let code = try QRCodeRenderer.render(try fixture.passURL(for: fixture.guests[0].guest))
        let withCode = DoorScenes.render(.plain, code: code.image, moduleSize: 8, severity: 0.2, rng: &rng)
        let codeBuffer = Self.yuyv(withCode)
        var conversion: [Double] = []
        var motionCost: [Double] = []
        var drawing: [Double] = []
        var decoding: [Double] = []
        var detector = MotionDetector()
        for _ in 0..<200 {
            var image = still
            conversion.append(
                Stopwatch.milliseconds {
                    image = codeBuffer.withUnsafeBytes {
                        GrayConversion.grayFrame(from: $0, fourCC: "YUYV", width: 640, height: 480, bytesPerLine: 1280)!
                    }
                })
            motionCost.append(Stopwatch.milliseconds { _ = detector.measure(image) })
            drawing.append(Stopwatch.milliseconds { display.showPreview(image, status: status) })
            decoding.append(Stopwatch.milliseconds { _ = decoder.decode(image) })
        }
        print("## Per frame at 640x480 with a pass in view (ms, median of 200)\n")
        let added = conversion.median + motionCost.median + drawing.median
        print(
            table(
                [
                    "YUYV to grey", "motion", "live picture (1280x800)", "all three", "decoding alone",
                    "added / decoding",
                ],
                [
                    [
                        f3(conversion.median), f3(motionCost.median), f3(drawing.median), f3(added),
                        f3(decoding.median),
                        String(format: "%.1f %%", added / decoding.median * 100),
                    ]
                ]))
        print()
    }
}
