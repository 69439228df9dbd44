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

/// A door at the camera's full rate while guests' passes move in view (issue 21, "at the door"): a capture
/// thread delivers a frame every 1/fps s as a webcam does (YUYV, converted to grey, motion measured) into a
/// newest-only slot, and the door loop takes the newest frame each time it is free and runs the whole door on it:
/// the decode gate, the decoder, validation, the roster, the database, the screen (an in-memory 1280x800
/// framebuffer). Counts the frames delivered, decided and dropped (replaced before the door loop took them), and
/// the process's CPU over the run (getrusage); beside it, in the same run, bare zbar on the same frames at the same
/// rate, on one thread. The camera driver's own work runs in the kernel and is not counted.
struct LiveDoorBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live-door", abstract: "A door at 30 fps with passes moving in view: frames decided, CPU.")

    @Option(help: "Frames per second the camera delivers.") var fps = 30.0
    @Option(help: "Seconds of each run.") var seconds = 20.0
    @Option(help: "Busy things (SceneClutter) in every frame, besides the lobby.") var clutter = 2
    @Option(help: "Frames each guest holds the pass up (a new pose in each frame).") var framesPerGuest = 15

    /// A frame as the capture thread hands it to the door loop.
    struct Delivered {
        var image: GrayFrame
        var time: Date
        var motion: Double
    }

    /// The newest frame the camera delivered and not yet taken: a new one replaces it (counted as dropped).
    final class NewestFrame: @unchecked Sendable {
        private let condition = NSCondition()
        private var frame: Delivered?
        private var finished = false
        private(set) var delivered = 0
        private(set) var dropped = 0

        func put(_ new: Delivered) {
            condition.lock()
            if frame != nil { dropped += 1 }
            frame = new
            delivered += 1
            condition.signal()
            condition.unlock()
        }

        func finish() {
            condition.lock()
            finished = true
            condition.signal()
            condition.unlock()
        }

        /// The newest frame, waiting for one; nil once finished.
        func take() -> Delivered? {
            condition.lock()
            defer { condition.unlock() }
            while frame == nil && !finished { condition.wait() }
            let taken = frame
            frame = nil
            return taken
        }
    }

    func run() throws {
        let folder = NSTemporaryDirectory() + "kiosk-bench-live-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fixture = try FixtureEvent(seed: 21, guestCount: 60)
        let c = try fixture.benchConfiguration(folder: folder)
        let display = FramebufferDisplay(
            width: 1280, height: 800, layout: .xrgb8888(width: 1280, stride: 1280 * 4),
            renderer: try ScreenRenderer(fonts: FontSet()))
        let door = try Door(configuration: c, display: display, camera: .replay, databaseMode: .createIfMissing)
        try door.store.upsertGuests(fixture.guests)
        door.controller.start()

        // Guests in turn, each holding the pass up for `framesPerGuest` frames, a new pose in each (plain,
        // turned and blurred by motion), with `clutter` busy things around; a second's worth of empty lobby
        // between guests.
        var rng = SplitMix64(seed: 21)
        let conditions: [DoorCondition] = [.plain, .rotated, .motionBlur, .tiltedPerspective]
        var frames: [GrayFrame] = []
        for guest in fixture.guests.prefix(6) {
            let code = try QRCodeRenderer.render(try fixture.passURL(for: guest.guest))
            for i in 0..<framesPerGuest {
                frames.append(
                    DoorScenes.render(
                        conditions[i % conditions.count], code: code.image, moduleSize: 8, severity: 0.3,
                        clutter: clutter, rng: &rng))
            }
            for _ in 0..<Int(fps) / 2 {
                frames.append(DoorScenes.empty(width: 640, height: 480, rng: &rng))
            }
        }
        let buffers = frames.map(IdleBench.yuyv)
        print(
            "## A door at \(Int(fps)) fps, passes moving in view (\(frames.count) frames in a loop, "
                + "\(framesPerGuest) per guest, clutter \(clutter), \(Int(seconds)) s per run)\n")

        // The door.
        let slot = NewestFrame()
        let start = Date()
        let camera = Thread {
            var motion = MotionDetector()
            var index = 0
            while true {
                let due = start.addingTimeInterval(Double(index) / fps)
                let wait = due.timeIntervalSinceNow
                if wait > 0 { Thread.sleep(forTimeInterval: wait) }
                if Date().timeIntervalSince(start) >= seconds { break }
                let image = buffers[index % buffers.count].withUnsafeBytes {
                    GrayConversion.grayFrame(from: $0, fourCC: "YUYV", width: 640, height: 480, bytesPerLine: 1280)!
                }
                slot.put(Delivered(image: image, time: Date(), motion: motion.measure(image)))
                index += 1
            }
            slot.finish()
        }
        let cpu0 = IdleBench.cpuSeconds()
        camera.start()
        var policy = CapturePolicy(settings: .init(c))
        var decided = 0
        var verdicts = 0
        var decodeCalls = 0
        while let f = slot.take() {
            let effort = policy.observe(motion: f.motion, at: f.time)
            if effort != .skip { decodeCalls += 1 }
            let results = door.controller.handle(frame: f.image, at: f.time, effort: effort)
            verdicts += results.count
            if !door.pipeline.lastCodes.isEmpty { policy.codeSeen(at: f.time) }
            if results.isEmpty, policy.previewDue(motion: f.motion, at: f.time) {
                door.controller.showPreview(f.image, at: f.time)
            }
            decided += 1
        }
        let wall = Date().timeIntervalSince(start)
        let doorCPU = (IdleBench.cpuSeconds() - cpu0) / wall

        // Bare zbar on the same frames at the same rate, one thread.
        let zbar = ZBarScanner()
        let zbarStart = Date()
        let zbarCPU0 = IdleBench.cpuSeconds()
        var zbarFrames = 0
        var zbarLate = 0
        while true {
            let due = zbarStart.addingTimeInterval(Double(zbarFrames) / fps)
            let wait = due.timeIntervalSinceNow
            if wait > 0 { Thread.sleep(forTimeInterval: wait) } else if wait < -1 / fps { zbarLate += 1 }
            if Date().timeIntervalSince(zbarStart) >= seconds { break }
            _ = zbar.scanRaw(frames[zbarFrames % frames.count])
            zbarFrames += 1
        }
        let zbarCPU = (IdleBench.cpuSeconds() - zbarCPU0) / Date().timeIntervalSince(zbarStart)

        let share = { (x: Double) in String(format: "%.0f %%", x * 100) }
        print("| | frames delivered | frames decided | dropped | verdicts | CPU (share of one core) | vs bare zbar |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        print(
            "| the door (gate, decoder, verdict, database, screen) | \(slot.delivered) | \(decided) "
                + "(\(decodeCalls) decoded) | \(slot.dropped) (\(String(format: "%.1f", 100 * Double(slot.dropped) / Double(max(1, slot.delivered)))) %) "
                + "| \(verdicts) | \(share(doorCPU)) | \(String(format: "%.2fx", doorCPU / max(zbarCPU, 1e-9))) |")
        print(
            "| bare zbar, same frames, same rate | \(zbarFrames) | \(zbarFrames) | (\(zbarLate) late) | | "
                + "\(share(zbarCPU)) | 1x |")
        print("\nCores: \(ProcessInfo.processInfo.activeProcessorCount); load average at the end: \(loadAverage())")
    }

    private func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
            .joined(separator: " ") ?? "?"
    }
}
