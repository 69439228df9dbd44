import Foundation
import PassFormat

/// An event's guests: added, imported, cancelled and reinstated, searched, listed and counted.
/// One role of `CheckinRepository`.
public protocol GuestRepository: Sendable {
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
}
