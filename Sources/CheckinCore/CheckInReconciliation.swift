import PassFormat

/// A guest's check-in and every admitting scan's outcome, worked out again from all the guest's scans, whatever
/// order they reached the server in: the check-in is the admitting scan with the earliest corrected time that
/// was not reverted (the first to arrive wins a tie); every other admitting scan not reverted is `superseded`,
/// with the check-in's door and time. A scan that displaces the check-in, and a revert of the check-in, need it:
/// the displaced scan becomes `superseded` (its door learns it through the next delta), and after a revert the
/// earliest remaining admitting scan becomes the check-in again (the guest did come in at that door).
public enum CheckInReconciliation {
    /// One scan of the guest as stored: the event and the answer a repeat of its key gets.
    public struct StoredScan: Equatable, Sendable {
        public var event: CheckInEvent
        public var answer: ScanOutcome

        public init(event: CheckInEvent, answer: ScanOutcome) {
            self.event = event
            self.answer = answer
        }
    }

    public struct Result: Equatable, Sendable {
        /// The guest's check-in, or nil when every admitting scan was reverted.
        public var checkIn: CheckIn?
        /// The admitting scans whose answer changes, with the new answer (its kind is the event's outcome).
        public var changed: [ScanKey: ScanOutcome]
    }

    /// Works out the guest's check-in at one list from its stored scans there, in the order they arrived.
    ///
    /// With exits (issue 51) the passages are walked in corrected-time order: an entry while the guest is inside
    /// (an entry with no exit after it) is `superseded`, a double entry; an entry after an exit is a re-entry,
    /// `recorded` with reason `reentry`; the earliest entry is the check-in whatever came before it. Without
    /// exits this is the rule above.
    public static func reconcile(_ scans: [StoredScan]) -> Result {
        let reverted = Set(
            scans.compactMap { scan -> ScanKey? in
                guard scan.event.kind == .revert, scan.event.outcome != .rejected else { return nil }
                return scan.event.reverts
            })
        let admitting = scans.filter {
            $0.event.kind == .checkIn
                && ($0.event.outcome == .applied || $0.event.outcome == .superseded
                    || ($0.event.outcome == .recorded && $0.answer.reason == Self.reentry))
                && !reverted.contains($0.event.key)
        }
        // The earliest corrected time; on a tie the first to arrive (`min` keeps the first of equals).
        guard let winner = admitting.min(by: { $0.event.correctedTime < $1.event.correctedTime })?.event,
            let guest = GuestID(text: winner.guest)
        else { return Result(checkIn: nil, changed: [:]) }
        let checkIn = CheckIn(
            event: winner.event, guest: guest, scanKey: winner.key, door: winner.door, deviceTime: winner.deviceTime,
            correctedTime: winner.correctedTime, receivedAt: winner.receivedAt, arrived: winner.arrived,
            list: winner.list)
        let exits = scans.filter { $0.event.kind == .exit && $0.event.outcome != .rejected }
        // Every passage in time order (a stable sort: arrival order breaks a tie, an exit after an entry).
        let passages = (admitting + exits).enumerated().sorted {
            ($0.element.event.correctedTime, $0.offset) < ($1.element.event.correctedTime, $1.offset)
        }.map(\.element)
        var changed: [ScanKey: ScanOutcome] = [:]
        var inside = false
        for scan in passages {
            guard scan.event.kind == .checkIn else {
                inside = false
                continue
            }
            let answer: ScanOutcome
            if scan.event.key == winner.key {
                answer = ScanOutcome(kind: .applied, checkIn: checkIn.summary)
            } else if inside {
                answer = ScanOutcome(kind: .superseded, checkIn: checkIn.summary)
            } else {
                answer = ScanOutcome(kind: .recorded, checkIn: checkIn.summary, reason: Self.reentry)
            }
            inside = true
            if answer != scan.answer { changed[scan.event.key] = answer }
        }
        return Result(checkIn: checkIn, changed: changed)
    }

    /// The reason of an entry after an exit of the same list.
    public static let reentry = "reentry"
}
