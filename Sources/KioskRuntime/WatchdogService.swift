import Foundation
import KioskCore
import Logging
import ServiceLifecycle
import Synchronization

/// Feeds systemd's watchdog only while the whole door is alive: every interval it asks the door loop to answer
/// a tick, and pings (`WATCHDOG=1`) only if the door loop answered lately and the capture thread, when one
/// runs, came back from the camera lately (`DoorLiveness`). A stalled decode, database or display, or a
/// camera stuck in its driver, stops the pings, and systemd restarts the kiosk. Without a systemd watchdog it
/// still logs a stall.
public final class WatchdogService: Service {
    private let notifier: SystemdNotifier
    private let heartbeat: DoorHeartbeat
    private let inbox: DoorInbox
    private let logger: Logger
    /// How often it checks (and pings); a third of systemd's WatchdogSec.
    let interval: Duration
    /// How long a part may stay silent: half of WatchdogSec.
    let limit: Double
    private let reported = Mutex<DoorLiveness.Stall?>(nil)

    init(notifier: SystemdNotifier, heartbeat: DoorHeartbeat, inbox: DoorInbox, logger: Logger) {
        self.notifier = notifier
        self.heartbeat = heartbeat
        self.inbox = inbox
        self.logger = logger
        let timeout = notifier.watchdogTimeout ?? .seconds(15)
        interval = timeout / 3
        limit = Double(timeout.components.seconds) / 2 + Double(timeout.components.attoseconds) / 2e18
    }

    public func run() async {
        let started = Date()
        try? await cancelWhenGracefulShutdown { [self] in
            while !Task.isCancelled {
                inbox.post(.tick)
                try await Task.sleep(for: interval)
                check(now: Date(), since: started)
            }
        }
    }

    /// Pings the watchdog if every part of the door is alive at `now`; logs a stall once per episode.
    /// Returns whether it pinged. Until the door loop has started (it answers first right after `READY=1`),
    /// it neither pings nor judges: systemd starts the watchdog at `READY=1`, and a slow start-up (opening the
    /// database, loading a replay folder on a loaded machine) is its start timeout's business.
    @discardableResult
    func check(now: Date, since started: Date) -> Bool {
        let liveness = heartbeat.current
        guard liveness.doorLoop != nil else { return false }
        let stall = liveness.stall(now: now, since: started, limit: limit)
        let first = reported.withLock { reported in
            defer { reported = stall }
            return reported == nil && stall != nil
        }
        guard let stall else {
            if notifier.watchdogTimeout != nil { notifier.notify("WATCHDOG=1") }
            return true
        }
        if first {
            logger.critical("\(stall): not feeding the watchdog, so that systemd restarts the kiosk")
        }
        return false
    }
}
