import CheckinAPI
import KioskCore
import KioskStore

/// `kioskctl sync` and `kioskctl roster refresh`: one exchange with the server, with the enrolment kept in the
/// database.
public enum SyncOnce {
    /// One heartbeat, one flush of the queue, then the roster brought up to date.
    public static func run(
        configuration: KioskConfiguration, store: some SyncStore, clock: any SyncClock = SystemSyncClock()
    ) async throws -> (queue: SyncReport, roster: RosterReport?) {
        let enrolment = try enrolled(store)
        let target = Enrolling.target(configuration: configuration, enrolment: enrolment)
        let offset = try store.lastContact()?.clockOffsetMilliseconds
        return try await CheckinClient.withClient(
            serverURL: target.serverURL, token: enrolment.token, caFile: target.caFile, clock: clock
        ) { client in
            var uploader = QueueUploader(
                enrolment: enrolment, client: client, clock: clock, clockOffsetMilliseconds: offset)
            let sent = try await uploader.flush(
                store: store,
                heartbeat: try HeartbeatReport.make(configuration: configuration, store: store, clock: clock))
            let roster = try await RosterDownloader(
                source: client, tenant: enrolment.tenant, event: configuration.event, clock: clock
            ).refresh(store: store)
            return (sent, roster)
        }
    }

    /// The roster only: finishes the first download, or fetches the changes.
    public static func refreshRoster(
        configuration: KioskConfiguration, store: some SyncStore, clock: any SyncClock = SystemSyncClock(),
        progress: @escaping @Sendable (RosterSyncState) -> Void = { _ in }
    ) async throws -> RosterReport {
        let enrolment = try enrolled(store)
        let target = Enrolling.target(configuration: configuration, enrolment: enrolment)
        return try await CheckinClient.withClient(
            serverURL: target.serverURL, token: enrolment.token, caFile: target.caFile, clock: clock
        ) { client in
            try await RosterDownloader(
                source: client, tenant: enrolment.tenant, event: configuration.event, clock: clock, progress: progress
            ).refresh(store: store)
        }
    }

    static func enrolled(_ store: some SyncStore) throws -> SyncEnrolment {
        guard let enrolment = try store.enrolment() else {
            throw SyncError(
                kind: .notEnrolled, operation: "syncing \(store.path)", message: "this kiosk is not enrolled",
                advice: "enrol it first: kioskctl enroll --config kiosk.conf --server URL --code CODE")
        }
        return enrolment
    }
}

/// The heartbeat's content from the kiosk's configuration and database.
public enum HeartbeatReport {
    public static func make(
        configuration: KioskConfiguration, store: some SyncStore, clock: any SyncClock, camera: String = "unknown"
    ) throws -> Heartbeat {
        let oldest = try store.nextSyncBatch(limit: 1).first?.checkIn.at
        let roster = try store.rosterSyncState(event: configuration.event)
        return Heartbeat(
            door: configuration.door, kioskVersion: KioskSoftware.version, pending: try store.pendingCount(),
            oldestPendingAt: oldest, rosterCursor: roster?.changeCursor, rosterFetchedAt: roster?.fetchedAt,
            camera: camera, clockOffsetMs: try store.lastContact()?.clockOffsetMilliseconds, deviceTime: clock.now())
    }
}
