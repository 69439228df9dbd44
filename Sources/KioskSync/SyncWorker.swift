import KioskCore
import KioskStore
import Logging
import ServiceLifecycle
import WireAPI

/// The kiosk's sync worker, a service of the kiosk's service group. Every round: the heartbeat (with each
/// upload and every 60 s), the queue in batches of 50, then the roster (the first download until complete,
/// then the changes). Rounds run every `sync_interval`, and at once when the door asks (`SyncRequests`); while
/// the server does not answer the worker backs off with jittered exponential waits. After every round it tells
/// the door online/offline, the pending count and the roster's state. It works on a connection of its own to
/// the kiosk's database (WAL: the door keeps writing), opened by `openStore`.
public struct SyncWorker: Service {
    public var configuration: KioskConfiguration
    public var clock: any SyncClock
    public var backoff: Backoff
    public var heartbeatInterval: Duration
    public var requests: SyncRequests
    public var report: @Sendable (SyncStatus) -> Void
    public var logger: Logger
    /// Opens the kiosk's database for the worker (the kiosk: `SQLiteDoorStore(configuration:mode:)`).
    public var openStore: @Sendable () throws -> any SyncStore

    public init(
        configuration: KioskConfiguration, clock: any SyncClock = SystemSyncClock(), backoff: Backoff = Backoff(),
        heartbeatInterval: Duration = .seconds(60), requests: SyncRequests = SyncRequests(), logger: Logger,
        openStore: @escaping @Sendable () throws -> any SyncStore,
        report: @escaping @Sendable (SyncStatus) -> Void
    ) {
        self.openStore = openStore
        self.configuration = configuration
        self.clock = clock
        self.backoff = backoff
        self.heartbeatInterval = heartbeatInterval
        self.requests = requests
        self.logger = logger
        self.report = report
    }

    public func run() async throws {
        do {
            try await cancelWhenGracefulShutdown { try await loop() }
        } catch is CancellationError {
            return
        }
    }

    func loop() async throws {
        let store = try openStore()
        guard let enrolment = try store.enrolment() else {
            logger.error(
                "kiosk.conf names server \(configuration.server ?? "-") but this kiosk is not enrolled; check-ins stay queued",
                metadata: ["advice": "kioskctl enroll --config \(configuration.file) --server URL --code CODE"])
            report(SyncStatus(connection: .offline, pending: try store.pendingCount(), lastError: "not enrolled"))
            try await clock.sleep(for: .seconds(365 * 24 * 3600))
            return
        }
        let target = Enrolling.target(configuration: configuration, enrolment: enrolment)
        let client = try CheckinClient(
            serverURL: target.serverURL, token: enrolment.token, caFile: target.caFile, clock: clock)
        do {
            try await syncForever(client: client, enrolment: enrolment, store: store)
        } catch {
            await client.shutdown()
            throw error
        }
        await client.shutdown()
    }

    func syncForever(client: CheckinClient, enrolment: SyncEnrolment, store: some SyncStore) async throws {
        var uploader = QueueUploader(
            enrolment: enrolment, client: client, clock: clock,
            clockOffsetMilliseconds: try store.lastContact()?.clockOffsetMilliseconds)
        var failures = 0
        var refreshes = 0
        var updateRequired = false
        var lastHeartbeat: ContinuousClock.Instant?
        var lastBeat: Heartbeat?
        var wakes = requests.wakes.makeAsyncIterator()
        while !Task.isCancelled {
            var wait = Duration.milliseconds(Int64(configuration.syncInterval * 1000))
            purgePersonalDataIfDue(store)
            do {
                let pending = try store.pendingCount()
                let heartbeatDue = lastHeartbeat.map { ContinuousClock.now - $0 >= heartbeatInterval } ?? true
                if pending > 0 || heartbeatDue {
                    let beat = try HeartbeatReport.make(configuration: configuration, store: store, clock: clock)
                    let sent = try await uploader.flush(store: store, heartbeat: beat)
                    lastHeartbeat = .now
                    lastBeat = beat
                    if sent.sent > 0 { logger.info("sync: \(sent)") }
                }
                do {
                    let report = self.report
                    let pendingNow = try store.pendingCount()
                    let roster = RosterDownloader(
                        source: client, tenant: enrolment.tenant, event: configuration.event, clock: clock
                    ) { state in
                        // A long first download's progress reaches the door page by page.
                        if !state.complete {
                            report(SyncStatus(connection: .online, pending: pendingNow, roster: state.freshness))
                        }
                    }
                    let fetched = try await roster.refresh(store: store)
                    updateRequired = false
                    refreshes += 1
                    if fetched.changes > 0 || fetched.restarted || fetched.protected > 0 { logger.info("\(fetched)") }
                } catch let error as SyncError where error.kind == .updateRequired {
                    if !updateRequired { logger.error("\(error)") }
                    updateRequired = true
                }
                // The organizer's monitor shows the state after this round (what was uploaded, the roster's
                // cursor), not the one before it.
                let after = try HeartbeatReport.make(configuration: configuration, store: store, clock: clock)
                if HeartbeatReport.differs(after, from: lastBeat) {
                    try await uploader.sendHeartbeat(after, store: store)
                    lastHeartbeat = .now
                    lastBeat = after
                }
                failures = 0
                report(
                    SyncStatus(
                        connection: .online, pending: try store.pendingCount(), roster: try freshness(store),
                        updateRequired: updateRequired, rosterRefreshes: refreshes))
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                failures += 1
                let transient = (error as? SyncError)?.isTransient ?? true
                wait = transient ? backoff.delay(afterFailures: failures) : backoff.maximum
                logger.warning("sync failed: \(error); next try in \(wait)")
                report(
                    SyncStatus(
                        connection: .offline, pending: (try? store.pendingCount()) ?? 0,
                        lastError: String(describing: error), roster: (try? freshness(store)) ?? .local,
                        updateRequired: updateRequired, rosterRefreshes: refreshes))
            }
            // Sleep until the next round, or until the door asks for one.
            let timer = Task { [clock, requests] in
                try await clock.sleep(for: wait)
                requests.syncNow()
            }
            let woken: Void? = await wakes.next()
            timer.cancel()
            if woken == nil { return }
        }
    }

    /// Deletes the personal data of events past the purge date the server gave, online or not (the date is kept).
    func purgePersonalDataIfDue(_ store: some SyncStore) {
        do {
            for purged in try store.purgePersonalData(dueAt: clock.now()) {
                logger.notice(
                    "event \(purged.event): the personal data of \(purged.guests) guests deleted (the server's retention)"
                )
            }
        } catch {
            logger.error("deleting personal data past its retention failed: \(error); tried again next round")
        }
    }

    func freshness(_ store: some SyncStore) throws -> RosterFreshness {
        try store.rosterSyncState(event: configuration.event)?.freshness ?? .local
    }
}
