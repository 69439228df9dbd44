import AsyncAlgorithms
import Foundation
import KioskCore
import KioskImageIO
import Logging
import ServiceLifecycle
import UnixSignals

/// The door running live: frames from the camera (or a replayed folder) at the adaptive rate, keys from the
/// keyboard, verdicts and the live picture on the display. SIGHUP applies a changed kiosk.conf; SIGTERM and
/// SIGINT stop it gracefully (the service group).
public final class DoorService: Service {
    enum Event: Sendable {
        case frame(CapturedFrame)
        case key(KeyEvent)
        case camera(CameraEvent)
        case reload
        case sourceEnded
    }

    private let configurationPath: String
    private let configuration: KioskConfiguration
    private let logger: Logger
    private let keyboard: KeyboardInput?
    private let makeDoor: @Sendable (KioskConfiguration) throws -> Door
    private let notifier: SystemdNotifier

    /// - Parameter makeDoor: builds the door inside the service's task, which then owns it alone.
    public init(configuration: KioskConfiguration, configurationPath: String, keyboard: KeyboardInput?, logger: Logger,
                notifier: SystemdNotifier = SystemdNotifier(),
                makeDoor: @escaping @Sendable (KioskConfiguration) throws -> Door) {
        self.configuration = configuration
        self.configurationPath = configurationPath
        self.keyboard = keyboard
        self.logger = logger
        self.notifier = notifier
        self.makeDoor = makeDoor
    }

    public func run() async throws {
        var running = configuration
        let door = try makeDoor(configuration)
        door.controller.verdictHold = configuration.verdictSeconds
        var policy = CapturePolicy(settings: .init(configuration))
        let (frames, frameInput) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(1))
        let (others, otherInput) = AsyncStream.makeStream(of: Event.self)
        let control = CaptureControl(device: "", width: configuration.captureWidth, height: configuration.captureHeight,
                                     fps: configuration.idleFPS)
        let producer = startSource(control: control, frames: frameInput, others: otherInput)
        let keyTask = Task {
            for await key in keyboard?.keys() ?? AsyncStream { $0.finish() } { otherInput.yield(.key(key)) }
        }
        let signalTask = Task {
            for await _ in await UnixSignalsSequence(trapping: .sighup) { otherInput.yield(.reload) }
        }
        defer {
            control.stop()
            producer?.cancel()
            keyTask.cancel()
            signalTask.cancel()
            keyboard?.restore()
        }
        door.controller.start()
        notifier.notify("READY=1")
        var rate = FrameRateMeter()
        var lastRateLog = Date.distantPast
        for await event in merge(frames, others).cancelOnGracefulShutdown() {
            switch event {
            case .frame(let f):
                let effort = policy.observe(motion: f.motion, at: f.time)
                let results = door.controller.handle(frame: f.image, at: f.time, effort: effort)
                if !door.pipeline.lastCodes.isEmpty { policy.codeSeen(at: f.time) }
                control.targetFPS = policy.targetFPS(at: f.time)
                if let fps = rate.tick(at: f.time) {
                    door.controller.status.fps = fps
                    if f.time.timeIntervalSince(lastRateLog) >= 5 {
                        logger.info("capture rate \(String(format: "%.1f", fps)) fps (target \(control.targetFPS))")
                        lastRateLog = f.time
                    }
                }
                if results.isEmpty, policy.previewDue(motion: f.motion, at: f.time) {
                    door.controller.showPreview(f.image, at: f.time)
                }
            case .key(let key):
                door.controller.handle(key: key, at: Date())
            case .camera(.streaming(let what)):
                door.controller.status.camera = "streaming \(what)"
                door.controller.showReady()
            case .camera(.disconnected(let why)):
                door.controller.status.camera = "Camera disconnected"
                door.controller.status.fps = nil
                logger.warning("camera disconnected (\(why)); manual entry keeps working")
                door.controller.showReady()
            case .reload:
                reload(into: door, policy: &policy, control: control, running: &running)
            case .sourceEnded:
                logger.info("frame source ended; manual entry stays available (SIGTERM or Ctrl-C stops the kiosk)")
            }
        }
        logger.info("kiosk stopping")
    }

    /// SIGHUP: read kiosk.conf again; a broken file is refused and the running settings stay.
    private func reload(into door: Door, policy: inout CapturePolicy, control: CaptureControl,
                        running configuration: inout KioskConfiguration) {
        let fresh: KioskConfiguration
        do {
            fresh = try ConfigurationFile.load(configurationPath)
        } catch {
            logger.error("SIGHUP: \(error); kiosk.conf not applied, the running settings stay")
            return
        }
        var applied = fresh
        applied.database = configuration.database  // the open database stays; a new path needs a restart
        if fresh.resolve(fresh.database) != configuration.resolve(configuration.database) {
            logger.warning("SIGHUP: 'database' changed; it takes effect at the next start")
        }
        if fresh.tenant != configuration.tenant || fresh.event != configuration.event || fresh.trustedKeys != configuration.trustedKeys {
            logger.warning("SIGHUP: tenant, event and trusted keys take effect at the next start")
        }
        door.pipeline.settings = .init(door: fresh.door, mode: fresh.mode, repeatWindow: fresh.repeatWindow)
        door.controller.status.door = fresh.door
        door.controller.status.mode = fresh.mode
        door.controller.verdictHold = fresh.verdictSeconds
        policy.settings = .init(fresh)
        if case .camera(let device) = fresh.source {
            control.request(device: device, width: fresh.captureWidth, height: fresh.captureHeight)
        }
        configuration = applied
        logger.notice("SIGHUP: kiosk.conf applied (idle_fps \(fresh.idleFPS), active_fps \(fresh.activeFPS), motion_threshold \(fresh.motionThreshold), quiet_time \(fresh.quietTime) s)")
    }

    /// Starts the configured frame source; frames go to `frames` (newest only), the rest to `others`.
    private func startSource(control: CaptureControl, frames: AsyncStream<Event>.Continuation,
                             others: AsyncStream<Event>.Continuation) -> Task<Void, Never>? {
        switch configuration.source {
        case .camera(let device):
            control.request(device: device, width: configuration.captureWidth, height: configuration.captureHeight)
            CameraLoop(control: control, logger: logger, notifier: notifier,
                       onFrame: { frames.yield(.frame($0)) }, onCamera: { others.yield(.camera($0)) }).start()
            return nil
        case .replay(let folder):
            let fps = configuration.effectiveReplayFPS
            let directory = configuration.resolve(folder)
            let logger = self.logger
            return Task {
                do {
                    let source = try ReplayFrameSource(directory: directory, framesPerSecond: fps)
                    var motion = MotionDetector()
                    while !Task.isCancelled {
                        let frame: Frame?
                        do { frame = try await source.nextFrame() } catch { logger.error("\(error)"); continue }
                        guard let frame else { break }
                        frames.yield(.frame(CapturedFrame(image: frame.image, time: Date(), motion: motion.measure(frame.image),
                                                          label: frame.label)))
                        try? await Task.sleep(for: .seconds(1 / fps))
                    }
                } catch {
                    logger.error("replay source: \(error)")
                }
                others.yield(.sourceEnded)
            }
        }
    }
}

/// Frames per second over the last second, for the status line.
struct FrameRateMeter {
    private var windowStart: Date?
    private var count = 0

    /// Counts a frame; returns the rate once a second.
    mutating func tick(at now: Date) -> Double? {
        guard let start = windowStart else { windowStart = now; return nil }
        count += 1
        let elapsed = now.timeIntervalSince(start)
        guard elapsed >= 1 else { return nil }
        defer { windowStart = now; count = 0 }
        return Double(count) / elapsed
    }
}
