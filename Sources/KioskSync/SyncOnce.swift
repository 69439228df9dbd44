import Foundation
import KioskCore
import KioskStore
import WireAPI

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
            let before = try HeartbeatReport.make(configuration: configuration, store: store, clock: clock)
            let sent = try await uploader.flush(store: store, heartbeat: before)
            let roster = try await RosterDownloader(
                source: client, tenant: enrolment.tenant, event: configuration.event, clock: clock
            ).refresh(store: store)
            // The organizer's monitor shows the state after this exchange, not before it.
            let after = try HeartbeatReport.make(configuration: configuration, store: store, clock: clock)
            if HeartbeatReport.differs(after, from: before) { try await uploader.sendHeartbeat(after, store: store) }
            try store.purgePersonalData(dueAt: clock.now())
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
            let report = try await RosterDownloader(
                source: client, tenant: enrolment.tenant, event: configuration.event, clock: clock, progress: progress
            ).refresh(store: store)
            // The organizer's monitor learns at once that this kiosk is up and how fresh its roster is (after
            // enrolment it said "never seen" and "not yet"). Only a report: a refresh that worked is not failed
            // by it.
            var uploader = QueueUploader(
                enrolment: enrolment, client: client, clock: clock,
                clockOffsetMilliseconds: try store.lastContact()?.clockOffsetMilliseconds)
            if let beat = try? HeartbeatReport.make(configuration: configuration, store: store, clock: clock) {
                try? await uploader.sendHeartbeat(beat, store: store)
            }
            return report
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
            camera: camera, clockOffsetMs: try store.lastContact()?.clockOffsetMilliseconds, deviceTime: clock.now(),
            peerKey: configuration.lanSync
                ? Data(try PeerKeys.publicKey(store: store, at: clock.now())).base64EncodedString() : nil,
            lanPeers: configuration.lanSync
                ? Array(try store.peerSightings().filter(\.linked).map(\.device).prefix(Heartbeat.maximumLANPeers))
                : nil)
    }

    /// Whether the monitor would show something else for `after` than for `before`: the queue or the roster's
    /// cursor moved.
    public static func differs(_ after: Heartbeat, from before: Heartbeat?) -> Bool {
        guard let before else { return true }
        return after.pending != before.pending || after.rosterCursor != before.rosterCursor
            || after.oldestPendingAt != before.oldestPendingAt || after.lanPeers != before.lanPeers
    }
}
