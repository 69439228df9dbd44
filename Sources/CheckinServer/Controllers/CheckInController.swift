import CheckinAPI
import CheckinCore
import Hummingbird
import KioskCore

/// `POST /v1/events/{eventId}/check-ins`: at most 50 items, applied in order, each in its own transaction
/// with its key and answer; one outcome each. Never refused for the kiosk's version.
struct CheckInController {
    let repository: any CheckinRepository
    let scope: TenantScope
    let clock: any ServerClock

    func addRoutes(to group: RouterGroup<ServerContext>) {
        group.post("events/:eventId/check-ins", use: upload)
    }

    @Sendable func upload(_ request: Request, context: ServerContext) async throws -> Response {
        let device = try context.requireDevice()
        let event = try await scope.event(context.parameters.get("eventId"), for: device, request: request)
        let batch = try await request.decodeJSON(CheckInBatch.self, context: context)
        guard (1...CheckInBatch.maximumSize).contains(batch.items.count) else {
            throw APIFailure.badRequest(
                "a batch has 1 to \(CheckInBatch.maximumSize) items, this one \(batch.items.count)",
                hint: "upload the queue in scan order, \(CheckInBatch.maximumSize) at a time")
        }
        var outcomes: [CheckInOutcome] = []
        for item in batch.items {
            let sequence = item.key.sequence
            guard item.key.deviceId == device.id else {
                outcomes.append(CheckInOutcome(sequence: sequence, outcome: .rejected, reason: "key_of_another_device"))
                continue
            }
            guard let guest = GuestID(text: item.guestId), item.guestId.count == 16 else {
                outcomes.append(CheckInOutcome(sequence: sequence, outcome: .rejected, reason: "unknown_guest"))
                continue
            }
            let scan = Scan(
                key: ScanKey(item.key), guest: guest, kind: ScanKind(item.kind), deviceTime: item.scannedAt,
                // Beyond a day either way the offset is ignored (ClockOffsetBound): corrected as if it had none.
                clockOffsetMs: ClockOffsetBound.accepted(item.clockOffsetMs), arrived: item.arrived, door: item.door,
                source: item.source,
                reverts: item.reverts.map(ScanKey.init))
            let outcome = try await repository.apply(scan, event: event.id, device: device, receivedAt: clock.now())
            outcomes.append(CheckInOutcome(sequence: sequence, outcome))
        }
        return try Response.json(CheckInBatchResult(outcomes: outcomes, serverTime: clock.now()))
    }
}

extension ScanKind {
    init(_ kind: ItemKind) {
        self =
            switch kind {
            case .checkIn: .checkIn
            case .reconfirm: .reconfirm
            case .revert: .revert
            }
    }
}
