import PassFormat
import SignedRecords

import struct Foundation.Date

/// What the roster knows about a guest at this event.
public enum RosterLookup: Equatable, Sendable {
    case admissible(RosterGuest)
    case checkedIn(RosterGuest, CheckIn)
    /// Checked in (at another door, earlier) and admitted here too: this door's admit was superseded.
    case doubleEntry(RosterGuest, CheckIn)
    case cancelled(RosterGuest?)
    case notFound
}

/// The result of writing a check-in: the database's unique key decides, so two writers never make two rows.
public enum CheckInWrite: Equatable, Sendable {
    case recorded
    case alreadyRecorded(CheckIn)
}

/// The kiosk's local database: roster, tombstones, check-ins, the pending-sync queue and the audit log.
/// Implemented over SQLite in `KioskStore`. One owner uses it from one task.
public protocol DoorStore: AnyObject {
    /// Looks a guest up at an event, including a tombstone or an earlier check-in.
    func lookUp(guest: GuestID, event: EventID) throws -> RosterLookup
    /// Writes the check-in, queues it for sync and audits the attempt, in one durable transaction.
    func record(checkIn: CheckIn, attempt: ScanAttempt) throws -> CheckInWrite
    /// Audits a scan that did not check anyone in. While another process holds the database's write lock,
    /// the row may wait in memory and be written, in order, by the next write: a locked database need not
    /// throw here, but a broken one does.
    func audit(_ attempt: ScanAttempt) throws
    /// Guests of the event whose code starts with `codePrefix` (normalised), at most `limit`.
    func guests(codePrefix: String, event: EventID, limit: Int) throws -> [RosterGuest]
    /// Guests of the event whose name, a word of the name, or e-mail starts with `prefix`, case-insensitively.
    func searchGuests(prefix: String, event: EventID, limit: Int) throws -> [RosterGuest]
    /// The last check-ins this door made at the event (newest first, at most `limit`) that are still the
    /// guests' check-ins here: what staff may undo.
    func recentCheckIns(event: EventID, door: String, limit: Int) throws -> [RecentCheckIn]
    /// Undoes a check-in made here: removes the local check-in, queues a revert naming its sequence and
    /// audits it, in one durable transaction. The guest can then be checked in again.
    func revert(_ recent: RecentCheckIn, attempt: ScanAttempt) throws -> RevertWrite
    /// The first roster download's progress while it is incomplete (an enrolled kiosk); nil once complete, and
    /// always nil for a standalone door (roster from a CSV).
    func incompleteRoster(event: EventID) throws -> RosterProgress?
}
