import CheckinCore
import EntryRules
import PassFormat
import WireAPI

// An uploaded or imported queue item as the domain's scan: the upload route and the queue import read items alike.

extension ScanKey {
    public init(_ key: ItemKey) { self.init(deviceId: key.deviceId, epoch: key.epoch, sequence: key.sequence) }
}

extension Scan {
    /// The scan an uploaded (or imported) item asks for; nil when its guest id is not one a pass can carry.
    /// The people one scan may count (0 for a revert or a re-confirmation): a party is at most 999, as on the
    /// kiosk and the LAN. `arrived` of 2^63 - 1 made every later sum of the event's arrivals overflow.
    public static let arrivals = 0...1000

    public init?(_ item: CheckInItem) {
        guard let guest = GuestID(text: item.guestId), item.guestId.count == 16, Self.arrivals.contains(item.arrived)
        else { return nil }
        self.init(
            key: ScanKey(item.key), guest: guest, kind: ScanKind(item.kind), deviceTime: item.scannedAt,
            // Beyond a day either way the offset is ignored (ClockOffsetBound): corrected as if it had none.
            clockOffsetMs: ClockOffsetBound.accepted(item.clockOffsetMs), arrived: item.arrived,
            door: item.door, source: item.source, reverts: item.reverts.map(ScanKey.init),
            list: item.list.map(ListID.init))
    }
}

extension ScanKind {
    public init(_ kind: ItemKind) {
        self =
            switch kind {
            case .checkIn: .checkIn
            case .reconfirm: .reconfirm
            case .revert: .revert
            case .exit: .exit
            }
    }
}
