import EntryRules
import Foundation
import PassFormat

/// Check-in lists and the gates of devices (issue 51). One role of `CheckinRepository`.
public protocol ListRepository: Sendable {
    /// A new list of the event, version 1. Throws `notFound` for an unknown event, `duplicateList` when the event
    /// has a list of that name.
    func createList(_ list: NewCheckInList, event: EventID, at time: Date) async throws -> CheckInList
    /// The event's lists by id: the first is the one it was made with.
    func lists(event: EventID) async throws -> [CheckInList]
    func list(_ id: ListID) async throws -> CheckInList?
    /// Gives the list new values and the next version. Throws `notFound`, or `duplicateList` for a name another
    /// list of the event has.
    func updateList(_ id: ListID, _ values: NewCheckInList) async throws -> CheckInList
    /// Moves the device to `gate` (its list must be of the device's event: the caller checks). Throws `notFound`
    /// for an unknown device.
    func setGate(_ gate: Gate, device: String) async throws
}
