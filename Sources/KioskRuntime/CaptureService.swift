import Foundation
import KioskCore
import Logging
import ServiceLifecycle

/// The camera as a service: the capture loop on a thread of its own, frames (newest only) and camera news to
/// the door loop. Graceful shutdown stops the loop and joins its thread.
final class CaptureService: Service {
    private let control: CaptureControl
    private let inbox: DoorInbox
    private let heartbeat: DoorHeartbeat
    private let logger: Logger

    init(control: CaptureControl, inbox: DoorInbox, heartbeat: DoorHeartbeat, logger: Logger) {
        self.control = control
        self.inbox = inbox
        self.heartbeat = heartbeat
        self.logger = logger
    }

    func run() async {
        let inbox = self.inbox
        let loop = CameraLoop(
            control: control, logger: logger, heartbeat: heartbeat,
            onFrame: { inbox.post(.frame($0)) }, onCamera: { inbox.post(.camera($0)) })
        heartbeat.captureRunning(true)
        defer { heartbeat.captureRunning(false) }
        await runOnDedicatedThread(named: "capture", body: { loop.run() }, stop: { [control] in control.stop() })
        logger.debug("capture stopped")
    }
}
