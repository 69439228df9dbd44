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

    /// Works out the guest's check-in from its stored scans, in the order they arrived.
    public static func reconcile(_ scans: [StoredScan]) -> Result {
        let reverted = Set(
            scans.compactMap { scan -> ScanKey? in
                guard scan.event.kind == .revert, scan.event.outcome != .rejected else { return nil }
                return scan.event.reverts
            })
        let admitting = scans.filter {
            $0.event.kind == .checkIn && ($0.event.outcome == .applied || $0.event.outcome == .superseded)
                && !reverted.contains($0.event.key)
        }
        // The earliest corrected time; on a tie the first to arrive (`min` keeps the first of equals).
        guard let winner = admitting.min(by: { $0.event.correctedTime < $1.event.correctedTime })?.event,
            let guest = GuestID(text: winner.guest)
        else { return Result(checkIn: nil, changed: [:]) }
        let checkIn = CheckIn(
            event: winner.event, guest: guest, scanKey: winner.key, door: winner.door, deviceTime: winner.deviceTime,
            correctedTime: winner.correctedTime, receivedAt: winner.receivedAt, arrived: winner.arrived)
        var changed: [ScanKey: ScanOutcome] = [:]
        for scan in admitting {
            let answer = ScanOutcome(
                kind: scan.event.key == winner.key ? .applied : .superseded, checkIn: checkIn.summary)
            if answer != scan.answer { changed[scan.event.key] = answer }
        }
        return Result(checkIn: checkIn, changed: changed)
    }
}
