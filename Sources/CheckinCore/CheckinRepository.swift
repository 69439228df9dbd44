import Foundation
import PassFormat

/// The server's one storage protocol: SQLite (`CheckinSQLite`) implements it now, PostgreSQL later; the same
/// test suite runs against each.
///
/// Tenancy is the caller's business: the repository answers by id, the server checks the tenant and answers
/// 404 for another tenant's things. Every method that writes is one transaction.
public protocol CheckinRepository: Sendable {
    // MARK: Tenants and events

    func createTenant(name: String, at time: Date) async throws -> Tenant
    func tenant(_ id: TenantID) async throws -> Tenant?
    /// Throws `RepositoryError.notFound` when the tenant does not exist.
    func createEvent(_ event: NewEvent, tenant: TenantID) async throws -> Event
    func event(_ id: EventID) async throws -> Event?
    func events(tenant: TenantID) async throws -> [Event]
    /// Events that ended before `endedBefore` and whose personal data is not purged yet (`PersonalDataRetention`).
    func eventsToPurge(endedBefore: Date) async throws -> [Event]
    /// Clears the event's personal data in one transaction (guests' names, e-mail addresses, phones, notes,
    /// alerts, external references; passes' text, image and recipient; mail errors) and marks the event purged;
    /// the file system's pass images are the caller's to delete. Guest ids, check-ins and the audit stay.
    func purgePersonalData(event: EventID, at time: Date) async throws -> PersonalDataPurge
    /// When the event's personal data was purged, nil if not yet.
    func personalDataPurgedAt(event: EventID) async throws -> Date?

    // MARK: Guests

    /// Adds all the guests or none (`RepositoryError.duplicateGuest` names the first id already there).
    func addGuests(_ guests: [NewGuest], event: EventID, at time: Date) async throws -> [Guest]
    /// Adds `additions` and gives the guests of `updates` their new values, in one transaction (all or
    /// nothing): kiosks get every row in their next delta. Throws `duplicateGuest` as `addGuests` does, and
    /// `notFound` for an update of a guest the event does not have.
    func importGuests(
        adding additions: [NewGuest], updating updates: [GuestImportPlan.Update], event: EventID, at time: Date
    ) async throws -> (added: [Guest], updated: [Guest])
    func guest(_ id: GuestID, event: EventID) async throws -> Guest?
    /// Marks the guest cancelled (kiosks get the row as a tombstone in their next delta).
    /// Throws `RepositoryError.notFound` when the event has no such guest.
    func cancelGuest(_ id: GuestID, event: EventID, at time: Date) async throws -> Guest
    /// Makes a cancelled guest active again (the organizer's undo): kiosks get the row in their next delta and
    /// drop its tombstone. Throws `RepositoryError.notFound` when the event has no such guest.
    func reinstateGuest(_ id: GuestID, event: EventID, at time: Date) async throws -> Guest

    /// Guests whose name or e-mail contains `text`, or whose confirmation code starts with it (dashes and case
    /// ignored), by name, at most `limit`; every guest when `text` is empty.
    func searchGuests(event: EventID, text: String, limit: Int) async throws -> [Guest]
    /// The guests of `query` in its order, from `offset`, at most `limit`, with the whole list's count.
    func guestList(event: EventID, _ query: GuestQuery, offset: Int, limit: Int) async throws -> GuestListPage
    func counts(event: EventID) async throws -> EventCounts
    /// Checked-in guests (their `checkIn` set), the latest check-in (corrected time) first, at most `limit`:
    /// only those checked in at or after `since` when given, only those with an arrival alert when
    /// `alertedOnly`.
    func arrivals(event: EventID, since: Date?, alertedOnly: Bool, limit: Int) async throws -> [Guest]
    /// Each check-in's door and corrected time from `since` on, for the dashboard's chart.
    func checkInTimes(event: EventID, since: Date) async throws -> [DoorTime]

    // MARK: Roster

    /// The first download, ordered by guest id. `page` nil starts it: the answer's `changeCursor` is the
    /// change cursor as of the start and `total` the number of guests; pass `nextPage` to go on.
    /// Throws `RepositoryError.badCursor` for a cursor it did not make.
    func rosterPage(event: EventID, page: String?, limit: Int) async throws -> RosterSlice
    /// Every guest row changed after `since` (a `changeCursor`), cancelled guests and check-in changes
    /// included, oldest change first; `nextPage` is set while more rows wait. Never skips a change.
    func rosterChanges(event: EventID, since: String, limit: Int) async throws -> RosterSlice
    /// For each change cursor, how many guest rows of the event changed after it: how far behind a kiosk
    /// that holds it is (0: up to date). Cursors this repository did not make are left out.
    func rosterChangesBehind(event: EventID, cursors: Set<String>) async throws -> [String: Int]

    // MARK: Devices

    /// Stores a new enrolment code (its hash only).
    func createEnrolmentCode(_ code: EnrolmentCode) async throws
    /// Redeems a code once: a new device of the code's tenant, or the code's `replacesDevice` with a new
    /// token and queue epoch (its old token stops working). Throws `notFound`, `codeUsed` or `codeExpired`.
    func redeemEnrolment(_ enrolling: Enrolling, at time: Date) async throws -> Device
    /// The device whose token has this SHA-256 (hex), revoked or not; nil for an unknown token.
    func device(tokenHash: String) async throws -> Device?
    func device(id: String) async throws -> Device?
    func devices(tenant: TenantID) async throws -> [Device]
    /// Every tenant's devices (for the server's own figures: `GET /metrics` counts them by state).
    func allDevices() async throws -> [Device]
    /// The devices whose latest enrolment was with a code made for this event (a kiosk moved to another event
    /// of the tenant is that event's), each with who made that code.
    func devices(event: EventID) async throws -> [EventDevice]
    /// Throws `notFound` when the tenant has no such device.
    func revokeDevice(_ id: String, tenant: TenantID, at time: Date) async throws
    /// The events the device's token may touch: the event of the enrolment code it last redeemed (a kiosk
    /// re-enrolled for another event of the tenant leaves the first). Empty for an unknown device.
    func enrolledEvents(device: String) async throws -> Set<EventID>
    /// Keeps the device's last report and last-seen time.
    func recordHeartbeat(_ report: DeviceReport, device: String, at time: Date) async throws

    // MARK: Check-ins

    /// Applies one uploaded item in one transaction with its key and answer (`CheckInRules.decide`), or
    /// returns the stored answer when the key was applied before. `device` is the uploading device.
    func apply(_ scan: Scan, event: EventID, device: Device, receivedAt: Date) async throws -> ScanOutcome
    /// Applies a batch's items in order, each as `apply(_:event:device:receivedAt:)` would (its key, answer and
    /// effect all or nothing), and answers each; `receivedAt` is asked once per item. When an item fails, the
    /// items before it stay applied with their answers, the ones after it are not applied, and the error is
    /// thrown. A repository may apply the batch in fewer transactions than items (SQLite: one, with a savepoint
    /// per item).
    func apply(_ scans: [Scan], event: EventID, device: Device, receivedAt: @Sendable () -> Date) async throws
        -> [ScanOutcome]
    func checkIns(event: EventID) async throws -> [CheckIn]
    /// Every scan that reached the server, in the order it was received.
    func checkInEvents(event: EventID) async throws -> [CheckInEvent]
    /// The event's double entries (`DoubleEntry`), by the other admit's corrected time.
    func doubleEntries(event: EventID) async throws -> [DoubleEntry]

    // MARK: Pass issuance

    /// Adding a guest with an e-mail or a phone (`addGuests`, `applyGuestWebhook`) starts an issuance in the same
    /// transaction; cancelling the guest cancels its unfinished ones.

    /// The tenant's newest signing key; when it has none, `candidate` becomes its first (of several processes
    /// racing, one candidate wins and every one gets it).
    func signingKey(tenant: TenantID, orAdd candidate: NewSigningKey, at time: Date) async throws -> SigningKey
    /// Adds a key that signs from now on (rotation). Throws `notFound` for an unknown tenant.
    func addSigningKey(_ key: NewSigningKey, tenant: TenantID, at time: Date) async throws -> SigningKey
    /// Newest first.
    func signingKeys(tenant: TenantID) async throws -> [SigningKey]
    /// Takes the issuance due first (`nextAttemptAt` at or before `now`) that no other worker holds, runs
    /// `perform` on it with its guest (nil when gone), stores the result and returns the issuance as stored;
    /// nil when none is due. No two workers, of this process or another, run the same issuance at once. A
    /// `perform` that throws leaves the issuance as it was.
    func runNextIssuanceStep(
        now: Date, _ perform: @Sendable (PassIssuance, Guest?) async throws -> IssuanceStepResult
    ) async throws -> PassIssuance?
    /// When the next pending issuance is due, if any.
    func nextIssuanceDue() async throws -> Date?
    /// The event's issuances, newest first, at most `limit`; only those with an error when `problemsOnly`.
    func issuances(event: EventID, problemsOnly: Bool, limit: Int) async throws -> [PassIssuance]
    func issuances(guest: GuestID, event: EventID) async throws -> [PassIssuance]
    /// Sends the guest's pass again: unfinished issuances stop and a new one starts. False when the guest is
    /// cancelled or has no e-mail or phone to send it to. Throws `notFound` for a guest the event does not have.
    func resendPass(_ id: GuestID, event: EventID, at time: Date) async throws -> Bool
    /// A failed issuance runs its failed step again now, with its attempts reset. Throws `notFound` unless the
    /// event has that issuance in `failed`.
    func retryIssuance(_ id: String, event: EventID, at time: Date) async throws -> PassIssuance

    // MARK: Webhooks

    /// Applies a verified webhook once: the change and the `webhook-id`'s receipt in one transaction; a
    /// `webhook-id` the tenant sent before answers `duplicate` and changes nothing.
    func applyGuestWebhook(
        id webhookID: String, tenant: TenantID, event: EventID, change: GuestWebhookChange, at time: Date
    ) async throws -> GuestWebhookOutcome
    func addWebhookSecret(_ secret: String, tenant: TenantID, at time: Date) async throws
    /// Newest first.
    func webhookSecrets(tenant: TenantID) async throws -> [WebhookSecret]

    // MARK: Offline alerts

    /// Replaces the event's alert settings (all fields nil: off). Throws `notFound` for an unknown event.
    func setOfflineAlerts(_ settings: OfflineAlertSettings, event: EventID, at time: Date) async throws
    /// The event's settings; all nil when never set.
    func offlineAlerts(event: EventID) async throws -> OfflineAlertSettings
    /// Every event whose alerts are on, with its settings.
    func eventsWithOfflineAlerts() async throws -> [(Event, OfflineAlertSettings)]
    /// The event's episodes not yet ended.
    func openOfflineEpisodes(event: EventID) async throws -> [OfflineEpisode]
    /// Records a new episode and queues its deliveries, in one transaction; false (nothing written) when that
    /// episode was recorded before, by this process or another.
    func recordOfflineEpisode(_ episode: OfflineEpisode, deliveries: [AlertDelivery]) async throws -> Bool
    /// Ends an open episode (its `endedAt` set) and queues its deliveries, in one transaction; false (nothing
    /// written) when it had ended already.
    func endOfflineEpisode(_ episode: OfflineEpisode, deliveries: [AlertDelivery]) async throws -> Bool
    /// Takes the pending delivery due first that no other worker holds, runs `perform` on it, stores what came
    /// of it (`AlertDelivery.after`) and returns it; nil when none is due. Like `runNextIssuanceStep`, no two
    /// workers of any process send the same delivery at once.
    func runNextAlertDelivery(now: Date, _ perform: @Sendable (AlertDelivery) async throws -> AlertDeliveryResult)
        async throws -> AlertDelivery?
    /// The event's deliveries, newest first, at most `limit`.
    func alertDeliveries(event: EventID, limit: Int) async throws -> [AlertDelivery]

    // MARK: Organizers and their sign-ins

    /// Throws `duplicateOrganizer` when the address has an account, `notFound` when the tenant does not exist.
    func createOrganizer(_ organizer: NewOrganizer, at time: Date) async throws -> Organizer
    /// By normalised address.
    func organizer(email: String) async throws -> Organizer?
    func createWebSession(_ session: WebSession) async throws
    /// The session with this token hash and its organizer, expired or not.
    func webSession(tokenHash: String) async throws -> (WebSession, Organizer)?
    func deleteWebSession(tokenHash: String) async throws
    /// Gives the organizer a new password hash and ends every session of theirs but `keeping` (the one that
    /// changed it), in one transaction. Throws `notFound` for an organizer that does not exist.
    func setOrganizerPassword(_ organizer: Int64, passwordHash: String, keeping tokenHash: String?) async throws
    /// Forgets the sessions that expired before `time`.
    func deleteExpiredWebSessions(before time: Date) async throws
    /// Keeps a password-reset link (its token's hash) for the organizer until `expiresAt`.
    func createPasswordReset(organizer: Int64, tokenHash: String, expiresAt: Date) async throws
    /// The organizer of a live reset link (unused, not expired at `time`); nil otherwise.
    func passwordResetOrganizer(tokenHash: String, at time: Date) async throws -> Organizer?
    /// Uses a live reset link, once: in one transaction every reset link of its organizer is deleted, the new
    /// password hash set and every session of theirs ended. Nil, with nothing changed, when the link is unknown,
    /// used or expired at `time` (of two uses at once, one wins).
    func redeemPasswordReset(tokenHash: String, passwordHash: String, at time: Date) async throws -> Organizer?

    // MARK: Rate limits

    /// Takes one hit at `time` under every limit's key (each kept until `time + window`), in one transaction,
    /// unless a key already holds `limit` hits younger than its window: then nothing is taken and the answer is
    /// false. Processes sharing the database share the counts; parallel callers never take more than `limit`.
    func takeHits(_ limits: [RateLimit], at time: Date) async throws -> Bool
    /// Forgets every hit under `key` (a sign-in that succeeded clears its account's failures).
    func forgetHits(key: String) async throws
    /// How many hits under `key` are younger than their window at `time` (what a warning counts down from).
    func hitCount(key: String, at time: Date) async throws -> Int
    /// Forgets every hit under a key that starts with `prefix` (an operator unlocking an account).
    func forgetHits(keysStartingWith prefix: String) async throws

    // MARK: Audit and admin

    func appendAudit(_ entry: AuditEntry) async throws
    /// The latest entries first; all tenants when `tenant` is nil.
    func auditEntries(tenant: TenantID?, limit: Int) async throws -> [AuditEntry]
    /// Replaces the admin token (its SHA-256, hex).
    func setAdminTokenHash(_ hash: String, at time: Date) async throws
    func adminTokenHash() async throws -> String?

    // MARK: Readiness

    /// The schema steps this server knows and those the database has applied (`GET /readyz`); throws when the
    /// database does not answer.
    func schemaStatus() async throws -> SchemaStatus
}

extension CheckinRepository {
    /// Each item in its own transaction, in order.
    public func apply(_ scans: [Scan], event: EventID, device: Device, receivedAt: @Sendable () -> Date)
        async throws -> [ScanOutcome]
    {
        var outcomes: [ScanOutcome] = []
        for scan in scans {
            outcomes.append(try await apply(scan, event: event, device: device, receivedAt: receivedAt()))
        }
        return outcomes
    }
}
