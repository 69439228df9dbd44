import CheckinAPI
import KioskCore
import KioskStore

/// `kioskctl sync`: one heartbeat and one flush of the queue, with the enrolment kept in the database.
public enum SyncOnce {
    public static func run(
        configuration: KioskConfiguration, store: SQLiteDoorStore, clock: any SyncClock = SystemSyncClock()
    ) async throws -> SyncReport {
        guard let enrolment = try store.enrolment() else {
            throw SyncError(
                kind: .notEnrolled, operation: "syncing \(store.path)", message: "this kiosk is not enrolled",
                advice: "enrol it first: kioskctl enroll --config kiosk.conf --server URL --code CODE")
        }
        let target = Enrolling.target(configuration: configuration, enrolment: enrolment)
        let offset = try store.lastContact()?.clockOffsetMilliseconds
        return try await CheckinClient.withClient(
            serverURL: target.serverURL, token: enrolment.token, caFile: target.caFile, clock: clock
        ) { client in
            var uploader = QueueUploader(
                enrolment: enrolment, client: client, clock: clock, clockOffsetMilliseconds: offset)
            return try await uploader.flush(
                store: store,
                heartbeat: try HeartbeatReport.make(configuration: configuration, store: store, clock: clock))
        }
    }
}

/// The heartbeat's content from the kiosk's configuration and database.
public enum HeartbeatReport {
    public static func make(
        configuration: KioskConfiguration, store: SQLiteDoorStore, clock: any SyncClock, camera: String = "unknown"
    ) throws -> Heartbeat {
        let oldest = try store.nextSyncBatch(limit: 1).first?.checkIn.at
        return Heartbeat(
            door: configuration.door, kioskVersion: KioskSoftware.version, pending: try store.pendingCount(),
            oldestPendingAt: oldest, rosterCursor: nil, rosterFetchedAt: nil, camera: camera,
            clockOffsetMs: try store.lastContact()?.clockOffsetMilliseconds, deviceTime: clock.now())
    }
}
