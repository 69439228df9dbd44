import AsyncAlgorithms
import Foundation
import KioskCore
import KioskSync
import Logging
import ServiceLifecycle

/// The door loop: frames (newest only), keys, camera news, reloads and the watchdog's ticks from the door's
/// inbox, verdicts and the live picture on the display. It owns the door (built in its own task). The other
/// services feed its inbox (`LiveKiosk`).
final class DoorService: Service {
    private let configurationPath: String
    private let configuration: KioskConfiguration
    private let inbox: DoorInbox
    private let control: CaptureControl
    private let heartbeat: DoorHeartbeat
    private let logger: Logger
    private let notifier: SystemdNotifier
    private let makeDoor: @Sendable (KioskConfiguration) throws -> Door
    /// The sync worker's requests (nil for a standalone door).
    private let requests: SyncRequests?

    init(
        configuration: KioskConfiguration, configurationPath: String, inbox: DoorInbox, control: CaptureControl,
        heartbeat: DoorHeartbeat, logger: Logger, notifier: SystemdNotifier, requests: SyncRequests? = nil,
        makeDoor: @escaping @Sendable (KioskConfiguration) throws -> Door
    ) {
        self.requests = requests
        self.configuration = configuration
        self.configurationPath = configurationPath
        self.inbox = inbox
        self.control = control
        self.heartbeat = heartbeat
        self.logger = logger
        self.notifier = notifier
        self.makeDoor = makeDoor
    }

    func run() async throws {
        var running = configuration
        let door = try makeDoor(configuration)
        door.controller.verdictHold = configuration.verdictSeconds
        var policy = CapturePolicy(settings: .init(configuration))
        door.controller.start()
        notifier.notify("READY=1")
        heartbeat.doorLoopAnswered()  // after READY=1: the watchdog pings only from here on
        var rate = FrameRateMeter()
        var waits = RefreshWaits()
        var lastRateLog = Date.distantPast
        for await event in merge(inbox.frames, inbox.others).cancelOnGracefulShutdown() {
            switch event {
            case .frame(let f):
                let effort = policy.observe(motion: f.motion, at: f.time)
                let results = door.controller.handle(frame: f.image, at: f.time, effort: effort)
                // Each verdict's kind in the journal, never the guest: what the door decided and when, for the
                // operator's `journalctl -u kiosk` (and the HIL test, which takes the pass away on it).
                for result in results { logger.info("verdict: \(result.verdict.name) (\(result.source))") }
                askForRefresh(results, door: door, waits: &waits)
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
            case .key(.refreshRoster):
                if let requests {
                    logger.info("roster refresh asked at the keyboard")
                    requests.syncNow()
                }
            case .key(let key):
                door.controller.handle(key: key, at: Date())
            // Camera news redraws the ready screen, but not over a verdict still held: frames and news come on
            // separate channels, so a kiosk that has just started may decide a pass before it hears that its
            // camera streams (the HIL test's restarted kiosk lost its "already checked in" screen that way).
            case .camera(.streaming(let what)):
                door.controller.status.camera = .streaming(what)
                door.controller.statusChanged(at: Date())
            case .camera(.disconnected(let why)):
                door.controller.status.camera = .disconnected(why)
                door.controller.status.fps = nil
                logger.warning("camera disconnected (\(why)); manual entry keeps working")
                door.controller.statusChanged(at: Date())
            case .reload:
                reload(into: door, policy: &policy, running: &running)
            case .sourceEnded:
                logger.info("frame source ended; manual entry stays available (SIGTERM or Ctrl-C stops the kiosk)")
            case .tick:
                await DoorFault.stallIfAsked(logger: logger)
            case .sync(let status):
                apply(status, to: door, waits: &waits)
            case .lan(let doors):
                if door.controller.status.lanDoors != doors {
                    door.controller.status.lanDoors = doors
                    logger.notice("LAN between doors: linked with \(doors) doors")
                    door.controller.statusChanged(at: Date())
                }
            }
            heartbeat.doorLoopAnswered()
        }
        logger.info("kiosk stopping")
    }

    /// A camera scan not in the roster at a door with a server: ask for the roster's changes now and decide
    /// the scan again when they are in.
    private func askForRefresh(_ results: [ScanResult], door: Door, waits: inout RefreshWaits) {
        // Asked whatever the last round said: a door that has just started has not heard from the worker yet,
        // and a round against an unreachable server fails fast.
        guard let requests else { return }
        for result in results {
            guard result.verdict == .notInRoster, result.source == .camera, let guest = result.token?.guest else {
                continue
            }
            waits.add(guest, at: result.at)
            requests.syncNow()
        }
    }

    /// The sync worker's news: connection, pending count, roster state, the version gate; after a roster
    /// refresh, the scans that waited for it are decided again (each for at most two refreshes or 30 s).
    private func apply(_ status: SyncStatus, to door: Door, waits: inout RefreshWaits) {
        var s = door.controller.status
        let changed = s.connection != status.connection || door.pipeline.updateRequired != status.updateRequired
        s.connection = status.connection
        s.pendingCheckIns = status.pending
        if status.roster != .local { s.roster = status.roster }
        door.pipeline.updateRequired = status.updateRequired
        s.warning = ScreenText.syncWarning(pending: status.pending, updateRequired: status.updateRequired)
        let statusLineChanged = s != door.controller.status
        door.controller.status = s
        if changed {
            logger.notice("sync: \(status.connection.label), \(status.pending) pending")
        }
        for result in waits.refreshed(count: status.rosterRefreshes, now: Date(), door: door.controller) {
            logger.info("scan decided again after the roster refresh: \(result.verdict.name)")
        }
        // After the rescans: a verdict just shown stays up for its hold.
        if changed || statusLineChanged { door.controller.statusChanged(at: Date()) }
    }

    /// SIGHUP: read kiosk.conf again; a broken file is refused and the running settings stay.
    private func reload(into door: Door, policy: inout CapturePolicy, running configuration: inout KioskConfiguration) {
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
        if fresh.tenant != configuration.tenant || fresh.event != configuration.event
            || fresh.trustedKeys != configuration.trustedKeys
        {
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
        logger.notice(
            "SIGHUP: kiosk.conf applied (idle_fps \(fresh.idleFPS), active_fps \(fresh.activeFPS), motion_threshold \(fresh.motionThreshold), quiet_time \(fresh.quietTime) s)"
        )
    }
}

/// Frames per second over the last second, for the status line.
struct FrameRateMeter {
    private var windowStart: Date?
    private var count = 0

    /// Counts a frame; returns the rate once a second.
    mutating func tick(at now: Date) -> Double? {
        guard let start = windowStart else {
            windowStart = now
            return nil
        }
        count += 1
        let elapsed = now.timeIntervalSince(start)
        guard elapsed >= 1 else { return nil }
        defer {
            windowStart = now
            count = 0
        }
        return Double(count) / elapsed
    }
}
