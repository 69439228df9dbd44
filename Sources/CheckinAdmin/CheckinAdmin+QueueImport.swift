import CheckinCore
import Foundation
import PassFormat
import WireAPI

/// What an imported queue export came to, item by item as the upload would have answered.
public struct QueueImportReport: Equatable, Sendable {
    public var deviceId: String
    public var door: String
    public var applied = 0
    public var superseded = 0
    public var rejected = 0
    /// Items whose key the server had already applied (from the kiosk's upload, or an earlier import): each is
    /// answered as before and changes nothing.
    public var alreadyApplied = 0
    /// The rejected items' reasons, each with how often.
    public var reasons: [String: Int] = [:]
    public var deviceRevoked: Bool
}

extension CheckinAdmin {
    /// Applies a kiosk's queue export (`kioskctl queue export`) as that kiosk's own upload would: the same keys,
    /// the same rules, in scan order, 50 at a time. Each key is applied once, so importing a file twice, or
    /// importing it and letting the kiosk upload the same items later, changes nothing the second time. The
    /// device must be one of the event's tenant; a revoked device's file is still applied (an operator carried it
    /// from the box) and the report says it was revoked. Audited.
    public func importQueue(_ export: QueueExport) async throws -> QueueImportReport {
        let event = try await existingEvent(EventID(export.event))
        guard let device = try await repository.device(id: export.deviceId), device.tenant == event.tenant else {
            throw Failure.notFound("device \(export.deviceId) in the tenant of event \(event.id)")
        }
        guard export.tenant == event.tenant.rawValue else {
            throw Failure.invalid(
                "the export is of tenant \(export.tenant), event \(event.id) is of tenant \(event.tenant): check "
                    + "--event and the file")
        }
        guard try await repository.enrolledEvents(device: device.id).contains(event.id) else {
            throw Failure.invalid(
                "device \(device.id) is not enrolled for event \(event.id): check --event and the file")
        }
        var report = QueueImportReport(deviceId: device.id, door: export.door, deviceRevoked: device.revoked)
        // Keys the server holds already are answered as before and counted apart.
        let known = Set(try await repository.checkInEvents(event: event.id).map(\.key))
        let clock = self.clock
        for start in stride(from: 0, to: export.items.count, by: CheckInBatch.maximumSize) {
            let chunk = export.items[start..<min(start + CheckInBatch.maximumSize, export.items.count)]
            let scans = chunk.compactMap(Scan.init)
            // Refused on sight, with the upload route's reasons (an exported queue may be hand-edited).
            for item in chunk where Scan(item) == nil {
                report.rejected += 1
                report.reasons[
                    Scan.arrivals.contains(item.arrived) ? "unknown_guest" : "arrived_out_of_range", default: 0] += 1
            }
            guard !scans.isEmpty else { continue }
            let outcomes = try await repository.apply(scans, event: event.id, device: device) { clock.now() }
            for (scan, outcome) in zip(scans, outcomes) {
                if known.contains(scan.key) {
                    report.alreadyApplied += 1
                    continue
                }
                switch outcome.kind {
                case .applied, .recorded: report.applied += 1
                case .superseded: report.superseded += 1
                case .rejected:
                    report.rejected += 1
                    report.reasons[outcome.reason ?? "rejected", default: 0] += 1
                }
            }
        }
        try await audit(
            event.tenant, "queue_imported",
            "\(export.items.count) items of device \(device.id) (door \(export.door), exported "
                + "\(APITime.text(export.exportedAt))) into event \(event.id): \(report.applied) applied, "
                + "\(report.superseded) superseded, \(report.rejected) rejected, \(report.alreadyApplied) already there"
                + (device.revoked ? "; the device is revoked" : ""))
        return report
    }
}
