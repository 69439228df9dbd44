import Foundation
import Logging

/// The hardware-in-the-loop test's stalled door (Tests/HIL): with `KIOSK_FAULT_STALL_DOOR_LOOP=PATH` in its
/// environment, the door loop, at a watchdog tick when PATH exists, deletes PATH and stops answering, as a door
/// loop stuck in decode, the database or the display would; the capture thread goes on. systemd's watchdog must
/// then restart the kiosk. Compiled into debug builds only (`KIOSK_FAULT_INJECTION`, set in Package.swift for the
/// debug configuration): a release kiosk has no such seam and never reads the variable.
enum DoorFault {
    static let variable = "KIOSK_FAULT_STALL_DOOR_LOOP"

    /// Waits until the task is cancelled if the variable names a file that exists (deleting it, so the restarted
    /// kiosk runs normally); returns at once otherwise.
    static func stallIfAsked(logger: Logger) async {
        #if KIOSK_FAULT_INJECTION
            guard let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty,
                FileManager.default.fileExists(atPath: path)
            else { return }
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                logger.error("fault injection: \(variable) names \(path), which could not be deleted: \(error)")
                return
            }
            logger.warning(
                "fault injection: the door loop stalls now (\(variable)); the watchdog should restart the kiosk")
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(3600))
            }
        #endif
    }
}
