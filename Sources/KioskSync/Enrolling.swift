import CheckinAPI
import KioskCore
import KioskStore

/// `kioskctl enroll`: redeems a one-time code at the server and keeps the device's token in the kiosk's
/// database (not in kiosk.conf).
public enum Enrolling {
    /// Redeems `code` for the door `door`; stores and returns the enrolment, and starts the server's roster for
    /// `event` from nothing (scans get `rosterIncomplete` until its first download completes).
    public static func enroll(
        store: SQLiteDoorStore, serverURL: String, code: String, door: String, event: EventID, caFile: String?,
        clock: any SyncClock = SystemSyncClock()
    ) async throws -> SyncEnrolment {
        let exchange = try await CheckinClient.withClient(
            serverURL: serverURL, token: nil, caFile: caFile, clock: clock
        ) { client in
            try await client.redeem(EnrolmentRequest(code: code, door: door, kioskVersion: KioskSoftware.version))
        }
        let answer = exchange.answer
        let enrolment = SyncEnrolment(
            serverURL: serverURL.hasSuffix("/") ? String(serverURL.dropLast()) : serverURL, deviceID: answer.deviceId,
            token: answer.token, tenant: TenantID(answer.tenantId), queueEpoch: answer.queueEpoch, caFile: caFile,
            enrolledAt: exchange.receivedAt)
        try store.saveEnrolment(enrolment)
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
