import KioskCore
import KioskStore
import PassFormat
import WireAPI

import struct Foundation.Date

/// Uploads the kiosk's queue once: batches of at most 50 in scan (sequence) order, each answer applied in one
/// transaction as it arrives (confirmed out of the queue, superseded kept for the screen, rejected moved to
/// the sync failures), the clock offset measured at every exchange. A failure stops the flush with the
/// unanswered items still queued: a later flush sends them again under the same keys, and the server answers
/// with what it stored the first time.
public struct QueueUploader {
    public var enrolment: SyncEnrolment
    public var client: CheckinClient
    public var clock: any SyncClock
    /// The offset measured at the last exchange (server minus device, ms), sent with every item.
    public var clockOffsetMilliseconds: Int64?

    public init(enrolment: SyncEnrolment, client: CheckinClient, clock: any SyncClock, clockOffsetMilliseconds: Int64?)
    {
        self.enrolment = enrolment
        self.client = client
        self.clock = clock
        self.clockOffsetMilliseconds = clockOffsetMilliseconds
    }

    /// Sends the heartbeat and every queued item; returns the counts. Throws the first failure (after
    /// applying every answer received before it).
    public mutating func flush(store: some SyncStore, heartbeat: Heartbeat? = nil) async throws -> SyncReport {
        var report = SyncReport()
        if let heartbeat { try await sendHeartbeat(heartbeat, store: store) }
        while true {
            let queued = try store.nextSyncBatch(limit: CheckInBatch.maximumSize)
            guard let first = queued.first else { break }
            // One event per upload: the leading run of items of the first item's event.
            let batch = Array(queued.prefix { $0.checkIn.event == first.checkIn.event })
            let exchange = try await client.upload(
                CheckInBatch(items: batch.map(item)), event: first.checkIn.event.rawValue)
            try noteContact(serverTime: exchange.answer.serverTime, exchange.sentAt, exchange.receivedAt, store)
            let asked = Set(batch.map(\.sequence))
            let answers = exchange.answer.outcomes.filter { asked.contains($0.sequence) }.map(Self.answer)
            try store.applySyncAnswers(answers, at: clock.now())
            report.batches += 1
            report.sent += batch.count
            for answer in answers {
                switch answer.outcome {
                case .confirmed: report.confirmed += 1
                case .superseded: report.superseded += 1
                case .rejected: report.rejected += 1
                }
            }
            // A server that answered none of the batch would make this loop forever: stop, retry later.
            guard !answers.isEmpty else {
                throw SyncError(
                    kind: .badAnswer, operation: "uploading \(batch.count) check-ins to \(client.serverURL)",
                    message: "the server answered none of the items sent",
                    advice: "check that the server and the kiosk are the same version; the queue stays")
            }
        }
        report.pending = try store.pendingCount()
        return report
    }

    /// `POST /v1/devices/heartbeat`, noting the contact and the offset.
    public mutating func sendHeartbeat(_ heartbeat: Heartbeat, store: some SyncStore) async throws {
        var beat = heartbeat
        beat.clockOffsetMs = clockOffsetMilliseconds
        beat.deviceTime = clock.now()
        let exchange = try await client.heartbeat(beat)
        try noteContact(serverTime: exchange.answer.serverTime, exchange.sentAt, exchange.receivedAt, store)
        // When the event's guests' personal data is deleted here (SyncWorker and SyncOnce do it once due).
        var purgeDates: [EventID: Date] = [:]
        for event in exchange.answer.events {
            if let at = event.personalDataPurgeAt { purgeDates[EventID(event.id)] = at }
        }
        try store.recordPersonalDataPurgeDates(purgeDates)
        try PeerKeys.keep(exchange.answer.peerCredentials, store: store, at: exchange.receivedAt)
        try PeerKeys.keep(exchange.answer.revocations, store: store, at: exchange.receivedAt)
    }

    mutating func noteContact(serverTime: Date, _ sentAt: Date, _ receivedAt: Date, _ store: some SyncStore) throws {
        let measured = ClockOffset.contact(serverTime: serverTime, sentAt: sentAt, receivedAt: receivedAt)
        let contact = try store.lastContact()?.merged(with: measured) ?? measured
        clockOffsetMilliseconds = contact.clockOffsetMilliseconds
        try store.recordContact(contact)
    }

    /// The wire item of a queued check-in or revert (`CheckInItem(pending:enrolment:clockOffsetMilliseconds:)`).
    func item(_ pending: PendingCheckIn) -> CheckInItem {
        CheckInItem(pending: pending, enrolment: enrolment, clockOffsetMilliseconds: clockOffsetMilliseconds)
    }

    static func answer(_ outcome: CheckInOutcome) -> SyncAnswer {
        switch outcome.outcome {
        case .applied, .recorded:
            SyncAnswer(sequence: outcome.sequence, outcome: .confirmed)
        case .superseded:
            SyncAnswer(
                sequence: outcome.sequence, outcome: .superseded(door: outcome.checkIn?.door, at: outcome.checkIn?.at))
        case .rejected:
            SyncAnswer(sequence: outcome.sequence, outcome: .rejected(reason: outcome.reason ?? "rejected"))
        }
    }
}
