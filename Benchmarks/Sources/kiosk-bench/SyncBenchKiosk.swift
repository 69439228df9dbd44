import CheckinServer
import Foundation
import KioskCore
import KioskStore
import KioskSync
import PassFormat
import WireAPI

/// One enrolled kiosk of the benchmark: its own store file, enrolment and client. Used by one task at a time
/// (the benchmark hands each kiosk to one child task and waits for it), hence `@unchecked Sendable`.
final class BenchKiosk: @unchecked Sendable {
    let store: SQLiteDoorStore
    let enrolment: SyncEnrolment
    let client: CheckinClient
    let event: EventID
    let door: String
    private var uploader: QueueUploader

    /// Enrols a kiosk at `url` with a fresh code of `server`'s event, its store at `path`.
    init(path: String, server: BenchServer, url: String, event: EventID, door: String) async throws {
        store = try SQLiteDoorStore(path: path, mode: .createIfMissing, key: DatabaseKey.random())
        let code = try await server.admin.createEnrolmentCode(event: event).code
        enrolment = try await Enrolling.enroll(
            store: store, serverURL: url, code: code, door: door, event: event, caFile: nil)
        client = try CheckinClient(serverURL: url, token: enrolment.token, caFile: nil)
        self.event = event
        self.door = door
        uploader = QueueUploader(
            enrolment: enrolment, client: client, clock: SystemSyncClock(), clockOffsetMilliseconds: 0)
    }

    func shutdown() async { await client.shutdown() }

    /// The roster downloader of this kiosk, reading pages through `source` (the client by default).
    func downloader(source: (any RosterSource)? = nil) -> RosterDownloader {
        RosterDownloader(source: source ?? client, tenant: enrolment.tenant, event: event, clock: SystemSyncClock())
    }

    /// Scans `guests` at the door as the kiosk does: each check-in durable with its queue and audit rows.
    func checkIn(_ guests: ArraySlice<GuestID>) throws {
        for guest in guests {
            let now = Date()
            let checkIn = CheckIn(guest: guest, event: event, door: door, at: now, arrived: 1, source: .camera)
            _ = try store.record(
                checkIn: checkIn,
                attempt: ScanAttempt(
                    at: now, door: door, source: .camera, payload: guest.text, guest: guest, verdict: "admitted",
                    reason: "bench"))
        }
    }

    /// Flushes the queue (batches of 50); returns the uploader's counts.
    func flush() async throws -> SyncReport {
        try await uploader.flush(store: store)
    }

    /// One heartbeat round trip (with the contact noted in the store, as a flush notes each batch's).
    func heartbeat() async throws {
        try await uploader.sendHeartbeat(
            Heartbeat(
                door: door, kioskVersion: KioskSoftware.version, pending: 0, oldestPendingAt: nil, rosterCursor: nil,
                rosterFetchedAt: nil, camera: "bench", clockOffsetMs: nil, deviceTime: Date()),
            store: store)
    }
}

/// A roster source that passes pages through and adds up the time spent waiting for them.
final class TimedRosterSource: RosterSource, @unchecked Sendable {
    let inner: any RosterSource
    private let lock = NSLock()
    private var waited: Duration = .zero

    init(_ inner: any RosterSource) { self.inner = inner }

    var seconds: Double { lock.withLock { Stopwatch.seconds(waited) } }

    func rosterPage(event: UInt32, page: String?, changesSince: String?) async throws(SyncError)
        -> CheckinClient.Exchange<RosterPage>
    {
        let start = ContinuousClock.now
        let answer = try await inner.rosterPage(event: event, page: page, changesSince: changesSince)
        let took = ContinuousClock.now - start
        lock.withLock { waited += took }
        return answer
    }
}

/// A roster source that answers with pages recorded from the server, keyed by the page asked for: the kiosk's
/// apply measured without the server and HTTP.
final class RecordedRosterSource: RosterSource, @unchecked Sendable {
    private let lock = NSLock()
    private var pages: [String: CheckinClient.Exchange<RosterPage>] = [:]

    func record(_ exchange: CheckinClient.Exchange<RosterPage>, page: String?) {
        lock.withLock { pages[page ?? ""] = exchange }
    }

    func rosterPage(event: UInt32, page: String?, changesSince: String?) async throws(SyncError)
        -> CheckinClient.Exchange<RosterPage>
    {
        guard var exchange = lock.withLock({ pages[page ?? ""] }) else {
            fatalError("the bench asked for a page it did not record: \(page ?? "the first")")
        }
        if let changesSince {
            // The delta after the download: nothing changed since.
            exchange.answer = RosterPage(
                guests: [], nextPage: nil, complete: true, changeCursor: changesSince, total: nil,
                serverTime: exchange.answer.serverTime)
        }
        return exchange
    }
}
