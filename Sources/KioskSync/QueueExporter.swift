import Foundation
import KioskCore
import WireAPI

/// `kioskctl queue export`: what this kiosk has not yet had acknowledged, as it would upload it, for a box that
/// cannot reach the server (dead uplink at the end of the night, a broken screen, a box that is failing).
public enum QueueExporter {
    /// Every queued item in scan order under this kiosk's keys. Nothing leaves the queue: the kiosk still uploads
    /// it when it can, and the server applies each key once, whichever arrives first.
    public static func export(configuration: KioskConfiguration, store: some SyncStore, now: Date) throws
        -> QueueExport
    {
        let enrolment = try SyncOnce.enrolled(store)
        let offset = try store.lastContact()?.clockOffsetMilliseconds
        let items = try store.nextSyncBatch(limit: Int.max).map {
            CheckInItem(pending: $0, enrolment: enrolment, clockOffsetMilliseconds: offset)
        }
        return QueueExport(
            tenant: enrolment.tenant.rawValue, event: configuration.event.rawValue, deviceId: enrolment.deviceID,
            door: configuration.door, exportedAt: now, items: items)
    }
}
