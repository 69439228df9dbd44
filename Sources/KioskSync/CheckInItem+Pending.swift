import KioskCore
import WireAPI

extension CheckInItem {
    /// The wire item of a queued check-in or revert: keyed by device, queue epoch and the queue's sequence
    /// number; a revert names the key of the check-in it undoes. The upload and the queue export both make it.
    init(pending: PendingCheckIn, enrolment: SyncEnrolment, clockOffsetMilliseconds: Int64?) {
        let checkIn = pending.checkIn
        var kind = ItemKind.checkIn
        var reverts: ItemKey?
        func key(_ sequence: Int64) -> ItemKey {
            ItemKey(deviceId: enrolment.deviceID, epoch: enrolment.queueEpoch, sequence: sequence)
        }
        if case .revert(let sequence) = pending.kind {
            kind = .revert
            reverts = sequence.map(key)
        }
        self.init(
            key: key(pending.sequence), guestId: checkIn.guest.text, kind: kind, scannedAt: checkIn.at,
            clockOffsetMs: clockOffsetMilliseconds, arrived: checkIn.arrived, door: checkIn.door,
            source: checkIn.source.rawValue, reverts: reverts)
    }
}
