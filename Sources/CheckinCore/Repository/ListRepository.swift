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
    /// How many guests are inside now, per list of the event that has any: guests whose latest passage there (by
    /// corrected time, then arrival) is an entry (the check-in, a double entry or a re-entry; not reverted).
    func inside(event: EventID) async throws -> [ListID: Int]
    /// Per list of the event that has any: the guests checked in there (arrivals) and the exits recorded.
    func passages(event: EventID) async throws -> [ListID: ListPassages]
}

/// What the dashboard shows of a list besides who is inside.
public struct ListPassages: Sendable, Equatable {
    public var arrivals: Int
    public var exits: Int

    public init(arrivals: Int = 0, exits: Int = 0) {
        self.arrivals = arrivals
        self.exits = exits
    }
}

extension ListRepository {
    /// The statements both stores run for `passages(event:)`: (list_id, n) rows, the event's id as `parameter`.
    public static func arrivalsSQL(event parameter: String) -> String {
        "SELECT list_id, count(*) AS n FROM list_check_in WHERE event_id = \(parameter) GROUP BY list_id"
    }

    public static func exitsSQL(event parameter: String) -> String {
        """
        SELECT list_id, count(*) AS n FROM check_in_event
        WHERE event_id = \(parameter) AND kind = 'exit' AND outcome <> 'rejected' AND list_id IS NOT NULL
        GROUP BY list_id
        """
    }

    /// The statement both stores run for `inside(event:)`, with the event's id as its one parameter `$event`.
    public static func insideSQL(event parameter: String) -> String {
        """
        SELECT list_id, count(*) AS inside FROM (
            SELECT e.list_id, e.kind,
                ROW_NUMBER() OVER (PARTITION BY e.guest_id, e.list_id ORDER BY e.corrected_time DESC, e.id DESC) AS n
            FROM check_in_event AS e
            WHERE e.event_id = \(parameter) AND e.list_id IS NOT NULL
                AND ((e.kind = 'check_in' AND e.outcome IN ('applied', 'superseded', 'recorded'))
                    OR (e.kind = 'exit' AND e.outcome <> 'rejected'))
                AND NOT EXISTS (
                    SELECT 1 FROM check_in_event AS r
                    WHERE r.event_id = e.event_id AND r.guest_id = e.guest_id AND r.kind = 'revert'
                        AND r.outcome <> 'rejected' AND r.reverts_device_id = e.device_id
                        AND r.reverts_epoch = e.epoch AND r.reverts_sequence = e.sequence)
        ) AS latest
        WHERE n = 1 AND kind = 'check_in'
        GROUP BY list_id
        """
    }
}
