import CheckinAPI
import KioskCore
import KioskStore
import Logging
import ServiceLifecycle

/// The kiosk's sync worker, a service of the kiosk's service group: uploads the queue every
/// `sync_interval` while the server answers (heartbeat with each upload and every 60 s), backs off with
/// jittered exponential waits while it does not, and tells the door online/offline and the pending count
/// after every attempt. It opens its own connection to the kiosk's database (WAL: the door keeps writing).
public struct SyncWorker: Service {
    public var configuration: KioskConfiguration
    public var clock: any SyncClock
    public var backoff: Backoff
    public var heartbeatInterval: Duration
    public var report: @Sendable (SyncStatus) -> Void
    public var logger: Logger

    public init(
        configuration: KioskConfiguration, clock: any SyncClock = SystemSyncClock(), backoff: Backoff = Backoff(),
        heartbeatInterval: Duration = .seconds(60), logger: Logger, report: @escaping @Sendable (SyncStatus) -> Void
    ) {
        self.configuration = configuration
        self.clock = clock
        self.backoff = backoff
        self.heartbeatInterval = heartbeatInterval
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
        let store = try SQLiteDoorStore(path: configuration.resolve(configuration.database), mode: .openExisting)
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
            try await uploadForever(client: client, enrolment: enrolment, store: store)
        } catch {
            await client.shutdown()
            throw error
        }
        await client.shutdown()
    }

    func uploadForever(client: CheckinClient, enrolment: SyncEnrolment, store: SQLiteDoorStore) async throws {
        var uploader = QueueUploader(
            enrolment: enrolment, client: client, clock: clock,
            clockOffsetMilliseconds: try store.lastContact()?.clockOffsetMilliseconds)
        var failures = 0
        var lastHeartbeat: ContinuousClock.Instant?
        while !Task.isCancelled {
            do {
                let pending = try store.pendingCount()
                let heartbeatDue = lastHeartbeat.map { ContinuousClock.now - $0 >= heartbeatInterval } ?? true
                if pending > 0 || heartbeatDue {
                    let beat = try HeartbeatReport.make(configuration: configuration, store: store, clock: clock)
                    let sent = try await uploader.flush(store: store, heartbeat: beat)
                    lastHeartbeat = .now
                    if sent.sent > 0 { logger.info("sync: \(sent)") }
                }
                failures = 0
                report(SyncStatus(connection: .online, pending: try store.pendingCount()))
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                failures += 1
                let transient = (error as? SyncError)?.isTransient ?? true
                let wait = transient ? backoff.delay(afterFailures: failures) : backoff.maximum
                logger.warning("sync failed: \(error); next try in \(wait)")
                report(
                    SyncStatus(
                        connection: .offline, pending: (try? store.pendingCount()) ?? 0,
                        lastError: String(describing: error)))
                try await clock.sleep(for: wait)
                continue
            }
            try await clock.sleep(for: .milliseconds(Int64(configuration.syncInterval * 1000)))
        }
    }
}
