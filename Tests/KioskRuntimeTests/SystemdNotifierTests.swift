import Foundation
import Logging
import Testing

@testable import KioskRuntime

/// The sd_notify datagrams the kiosk sends systemd: READY=1 at start, WATCHDOG=1 while the whole door is alive.
@Suite struct SystemdNotifierTests {
    @Test func sendsTheStateToTheNotifySocket() throws {
        let socket = try NotifySocket()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.path])
        #expect(notifier.notify("WATCHDOG=1"))
        #expect(socket.receive(timeout: 1) == "WATCHDOG=1")
    }

    @Test func withoutSystemdItDoesNothing() {
        #expect(!SystemdNotifier(environment: [:]).notify("READY=1"))
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "15000000"]).watchdogTimeout == nil)
    }

    @Test func theWatchdogTimeoutIsReadForThisProcessOnly() {
        let ours = SystemdNotifier(environment: [
            "NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": "15000000",
            "WATCHDOG_PID": String(getpid()),
        ])
        #expect(ours.watchdogTimeout == .seconds(15))
        let other = SystemdNotifier(environment: [
            "NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": "15000000", "WATCHDOG_PID": "1",
        ])
        #expect(other.watchdogTimeout == nil)
    }

    /// The watchdog is fed only while the door loop answers and the capture thread comes back from the camera.
    @Test func theWatchdogIsFedOnlyWhileEveryPartOfTheDoorIsAlive() throws {
        let socket = try NotifySocket()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.path, "WATCHDOG_USEC": "3000000"])
        let heartbeat = DoorHeartbeat()
        let watchdog = WatchdogService(
            notifier: notifier, heartbeat: heartbeat, inbox: DoorInbox(),
            logger: Logger(label: "test"))
        #expect(watchdog.interval == .seconds(1) && watchdog.limit == 1.5)
        let start = Date(timeIntervalSince1970: 1_000)

        heartbeat.captureRunning(true, at: start)
        // Starting up (the door loop has not answered yet): no ping, and no stall however long it takes.
        #expect(!watchdog.check(now: start + 30, since: start))
        #expect(socket.receive(timeout: 0.2) == nil)

        heartbeat.doorLoopAnswered(at: start + 1)
        heartbeat.captureTurned(at: start + 1)
        #expect(watchdog.check(now: start + 2, since: start))
        #expect(socket.receive(timeout: 1) == "WATCHDOG=1")

        // The camera keeps turning, but the door loop is stuck (a decode or a database write that hangs).
        heartbeat.captureTurned(at: start + 4.5)
        #expect(!watchdog.check(now: start + 5, since: start))
        #expect(socket.receive(timeout: 0.2) == nil)

        // The door loop answers again, but the capture thread is stuck inside the camera driver.
        heartbeat.doorLoopAnswered(at: start + 9.5)
        #expect(!watchdog.check(now: start + 10, since: start))
        #expect(socket.receive(timeout: 0.2) == nil)

        // The capture thread ended (a replay has none): only the door loop counts.
        heartbeat.captureRunning(false, at: start + 10)
        #expect(watchdog.check(now: start + 10.5, since: start))
        #expect(socket.receive(timeout: 1) == "WATCHDOG=1")
    }
}
