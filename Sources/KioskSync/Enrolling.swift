import Foundation
import KioskCore
import KioskStore
import PassFormat
import WireAPI

/// `kioskctl enroll`: redeems a one-time code at the server and keeps the device's token in the kiosk's
/// database (not in kiosk.conf).
public enum Enrolling {
    /// Redeems `code` for the door `door`; stores and returns the enrolment, and starts the server's roster for
    /// `event` from nothing (scans get `rosterIncomplete` until its first download completes).
    ///
    /// The redeem carries the enrolment's nonce, kept in the database before the first try: when the server
    /// cannot be reached, answers 5xx or 429, or the answer is lost, it is tried again with the same code and
    /// nonce (jittered backoff) for up to `retryFor`, and the server gives the same device a new token rather
    /// than refusing a code it already spent. A later `kioskctl enroll` with the same code does the same.
    public static func enroll(
        store: some SyncStore, serverURL: String, code: String, door: String, event: EventID, caFile: String?,
        clock: any SyncClock = SystemSyncClock(), retryFor: Duration = .seconds(60),
        backoff: Backoff = Backoff(base: .seconds(1), maximum: .seconds(15)),
        attempted: @Sendable (SyncError, Duration) -> Void = { _, _ in }
    ) async throws -> SyncEnrolment {
        let nonce = try store.enrolmentNonce(at: clock.now())
        // Enrolled before with this server: its token goes along, so the server renews this kiosk's device
        // instead of making a second one (never to another server, which must not learn it).
        let address = serverURL.hasSuffix("/") ? String(serverURL.dropLast()) : serverURL
        let previous = try store.enrolment().flatMap { $0.serverURL == address ? $0.token : nil }
        // The peer key pair for the LAN between doors: the server answers with a credential for it.
        let peerKey = try PeerKeys.publicKey(store: store, at: clock.now())
        let request = EnrolmentRequest(
            code: code, door: door, kioskVersion: KioskSoftware.version, nonce: nonce, replacesToken: previous,
            peerKey: Data(peerKey).base64EncodedString())
        let started = clock.now()
        var failures = 0
        var exchange: CheckinClient.Exchange<Enrolment>
        while true {
            do {
                exchange = try await CheckinClient.withClient(
                    serverURL: serverURL, token: nil, caFile: caFile, clock: clock
                ) { client in try await client.redeem(request) }
                break
            } catch var error as SyncError where error.isTransient {
                failures += 1
                let wait = backoff.delay(afterFailures: failures)
                let spent = clock.now().timeIntervalSince(started)
                error.advice =
                    "run the same kioskctl enroll again once the server can be reached: this kiosk keeps its "
                    + "attempt, so the same code still enrols it while the code is valid (24 h from when it was made)"
                guard Duration.seconds(spent) + wait <= retryFor else { throw error }
                attempted(error, wait)
                try await clock.sleep(for: wait)
            }
        }
        let answer = exchange.answer
        let enrolment = SyncEnrolment(
            serverURL: address, deviceID: answer.deviceId,
            token: answer.token, tenant: TenantID(answer.tenantId), queueEpoch: answer.queueEpoch, caFile: caFile,
            enrolledAt: exchange.receivedAt)
        try store.finishEnrolment(enrolment)
        try PeerKeys.keep(answer.peerCredentials, store: store, at: exchange.receivedAt)
        try store.startRosterDownload(event: event)
        try store.recordContact(
            ClockOffset.contact(serverTime: answer.serverTime, sentAt: exchange.sentAt, receivedAt: exchange.receivedAt)
        )
        return enrolment
    }

    /// The server and CA file to use: kiosk.conf's `server` and `server_ca` where set, else the enrolment's.
    public static func target(configuration: KioskConfiguration, enrolment: SyncEnrolment) -> (
        serverURL: String, caFile: String?
    ) {
        (
            configuration.server ?? enrolment.serverURL,
            configuration.serverCA.map(configuration.resolve) ?? enrolment.caFile
        )
    }
}
