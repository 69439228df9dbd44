import KioskCore
import KioskStore
import PassFormat
import SignedRecords

import struct Foundation.Date

/// What the sync worker needs of the kiosk's database: the enrolment, the queue and its answers, the contact
/// with the server, the roster's download state and pages, and the personal data's purge dates. The kiosk's `SQLiteDoorStore` is one; the
/// worker is handed a way to open it (`SyncWorker.openStore`), it does not open a database itself. Like the
/// store, it belongs to one task at a time.
public protocol SyncStore: AnyObject {
    /// Where the database is, for messages.
    var path: String { get }

    func enrolment() throws -> SyncEnrolment?
    func enrolmentNonce(at now: Date) throws -> String
    func finishEnrolment(_ enrolment: SyncEnrolment) throws

    func pendingCount() throws -> Int
    func nextSyncBatch(limit: Int) throws -> [PendingCheckIn]
    func applySyncAnswers(_ answers: [SyncAnswer], at now: Date) throws -> Int

    func lastContact() throws -> SyncContact?
    func recordContact(_ contact: SyncContact) throws

    func rosterSyncState(event: EventID) throws -> RosterSyncState?
    func startRosterDownload(event: EventID) throws
    @discardableResult
    func applyRosterPage(_ page: PreparedRosterPage, state: RosterSyncState, at now: Date) throws -> RosterApplied

    func peerIdentity() throws -> (privateKey: [UInt8], publicKey: [UInt8])?
    func savePeerIdentity(privateKey: [UInt8], publicKey: [UInt8], at now: Date) throws
        -> (privateKey: [UInt8], publicKey: [UInt8])
    func savePeerCredentials(_ credentials: [PeerCredential], at now: Date) throws
    func peerSightings() throws -> [PeerSighting]
    func keepGuestNotices(_ notices: [GuestNotice], at now: Date) throws
    @discardableResult
    func keepRevocations(_ revocations: [DeviceRevocation], at now: Date) throws -> [DeviceRevocation]

    func recordPersonalDataPurgeDates(_ dates: [EventID: Date]) throws
    @discardableResult
    func purgePersonalData(dueAt now: Date) throws -> [(event: EventID, guests: Int)]
}

extension SQLiteDoorStore: SyncStore {}
