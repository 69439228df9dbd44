import Foundation
import KioskCapture
import KioskCore
import Logging

/// The capture thread's work: owns the V4L2 camera, keeps only the newest frame, paces the rate, survives the
/// camera being unplugged (retries every half second, under the same name), and leaves a sign of life for the
/// watchdog while frames arrive (or while it is retrying a camera that is gone): a camera stuck inside its
/// driver leaves none, and systemd restarts the kiosk. `CaptureService` runs it on a thread of its own.
final class CameraLoop: @unchecked Sendable {
    // @unchecked: all mutable state is confined to the one thread `run` is called on.
    let control: CaptureControl
    let logger: Logger
    let heartbeat: DoorHeartbeat
    let onFrame: @Sendable (CapturedFrame) -> Void
    let onCamera: @Sendable (CameraEvent) -> Void

    /// A stream that delivers no frame for this long is reopened.
    static let stallTimeout = 5.0
    static let retryInterval = 0.5

    init(
        control: CaptureControl, logger: Logger, heartbeat: DoorHeartbeat,
        onFrame: @escaping @Sendable (CapturedFrame) -> Void, onCamera: @escaping @Sendable (CameraEvent) -> Void
    ) {
        self.control = control
        self.logger = logger
        self.heartbeat = heartbeat
        self.onFrame = onFrame
        self.onCamera = onCamera
    }

    /// Runs until `control` is stopped (within half a second of it).
    func run() {
        var camera: V4L2Camera?
        var opened: CaptureControl.State?
        var driverFPS: Double?
        var lastFrame = Date()
        var lastEmit = Date.distantPast
        var lastError = ""
        var motion = MotionDetector()
        while !control.isStopped {
            let wanted = control.snapshot
            let now = Date()
            if camera == nil || now.timeIntervalSince(lastFrame) < Self.stallTimeout {
                heartbeat.captureTurned(at: now)
            }
            if let o = opened, o.device != wanted.device || o.width != wanted.width || o.height != wanted.height {
                logger.info("camera settings changed: reopening \(wanted.device) at \(wanted.width)x\(wanted.height)")
                camera = nil
                opened = nil
            }
            if camera == nil {
                do {
                    let c = try V4L2Camera(
                        CameraRequest(
                            devicePath: wanted.device, width: wanted.width, height: wanted.height,
                            framesPerSecond: wanted.targetFPS))
                    camera = c
                    opened = wanted
                    driverFPS = nil
                    lastFrame = Date()
                    lastError = ""
                    motion = MotionDetector()
                    logger.info("camera \(wanted.device) streaming \(c.format)")
                    onCamera(.streaming("\(c.format.width)x\(c.format.height) \(c.format.fourCC)"))
                } catch {
                    let text = "\(error)"
                    if text != lastError {
                        logger.error("camera: \(text); retrying every \(Self.retryInterval) s")
                        onCamera(.disconnected(text))
                        lastError = text
                    }
                    Thread.sleep(forTimeInterval: Self.retryInterval)
                    continue
                }
            }
            guard let c = camera else { continue }
            let target = wanted.targetFPS
            if driverFPS != target {
                // Ask the driver; where it cannot, the loop paces in software below.
                do {
                    if try c.setFrameRate(target) { logger.debug("driver frame rate set to \(target) fps") }
                } catch {
                    logger.warning("camera: \(error); pacing \(target) fps in software")
                }
                driverFPS = target
            }
            do {
                guard let image = try c.nextFrame(timeout: .milliseconds(500)) else {
                    if Date().timeIntervalSince(lastFrame) > Self.stallTimeout {
                        logger.error(
                            "camera \(wanted.device) delivered no frame for \(Int(Self.stallTimeout)) s: reopening it")
                        camera = nil
                    }
                    continue
                }
                let t = Date()
                lastFrame = t
                // Software pacing: drop frames that come faster than the target rate.
                if t.timeIntervalSince(lastEmit) < 0.92 / target { continue }
                lastEmit = t
                onFrame(CapturedFrame(image: image, time: t, motion: motion.measure(image), label: nil))
            } catch {
                logger.error("camera: \(error)")
                camera = nil
                opened = nil
                let text = "\(error)"
                onCamera(.disconnected(text))
                lastError = text
                Thread.sleep(forTimeInterval: Self.retryInterval)
            }
        }
    }
}
