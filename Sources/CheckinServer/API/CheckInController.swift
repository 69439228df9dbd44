import CheckinAdmin
import CheckinCore
import Hummingbird
import PassFormat
import WireAPI

/// `POST /v1/events/{eventId}/check-ins`: at most 50 items, applied in order, each all or nothing with its key
/// and answer (`CheckinRepository.apply(_:event:device:receivedAt:)` for the batch); one outcome each. Never
/// refused for the kiosk's version.
struct CheckInController {
    let repository: any CheckinRepository
    let scope: TenantScope
    let clock: any ServerClock
    var metrics: ServerMetrics? = nil

    func addRoutes(to group: RouterGroup<ServerContext>) {
        group.post("events/:eventId/check-ins", use: upload)
    }

    @Sendable func upload(_ request: Request, context: ServerContext) async throws -> Response {
        let device = try context.requireDevice()
        let event = try await scope.event(context.parameters.get("eventId"), for: device, request: request)
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        // The direct reader first; what it does not take, JSONDecoder decides (and words the 400).
        let batch: CheckInBatch
        if let direct = try? body.withUnsafeReadableBytes({ try CheckInBatch(json: $0) }) {
            batch = direct
        } else {
            batch = try decodeAPIJSON(CheckInBatch.self, from: body)
        }
        guard (1...CheckInBatch.maximumSize).contains(batch.items.count) else {
            throw APIFailure.badRequest(
                "a batch has 1 to \(CheckInBatch.maximumSize) items, this one \(batch.items.count)",
                hint: "upload the queue in scan order, \(CheckInBatch.maximumSize) at a time")
        }
        // Items the server refuses on sight are answered here; the others go to the repository together, in
        // scan order, and their answers are put back in place.
        var outcomes: [CheckInOutcome?] = []
        var scans: [Scan] = []
        for item in batch.items {
            let sequence = item.key.sequence
            guard item.key.deviceId == device.id else {
                outcomes.append(CheckInOutcome(sequence: sequence, outcome: .rejected, reason: "key_of_another_device"))
                continue
            }
            guard Scan.arrivals.contains(item.arrived) else {
                outcomes.append(CheckInOutcome(sequence: sequence, outcome: .rejected, reason: "arrived_out_of_range"))
                continue
            }
            guard let scan = Scan(item) else {
                outcomes.append(CheckInOutcome(sequence: sequence, outcome: .rejected, reason: "unknown_guest"))
                continue
            }
            scans.append(scan)
            outcomes.append(nil)
        }
        let clock = self.clock
        var results: [ScanOutcome] = []
        if !scans.isEmpty {
            results = try await repository.apply(scans, event: event.id, device: device) { clock.now() }
        }
        var applied = results.makeIterator()
        let answers = zip(batch.items, outcomes).map { item, outcome in
            outcome ?? CheckInOutcome(sequence: item.key.sequence, applied.next()!)
        }
        if let metrics {
            let now = clock.now()
            for answer in answers { metrics.checkInIngested(outcome: answer.outcome.rawValue) }
            for (scan, result) in zip(scans, results) where result.kind == .applied || result.kind == .recorded {
                let offset = Double(scan.clockOffsetMs ?? 0) / 1000
                metrics.syncLatency(now.timeIntervalSince(scan.deviceTime.addingTimeInterval(offset)))
            }
        }
        return Response.json(bytes: CheckInBatchResult(outcomes: answers, serverTime: clock.now()).encodedJSON())
    }
}
