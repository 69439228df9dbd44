import Foundation
import PassFormat

/// The rules of check-ins, as pure functions: each database loads the state, asks these, and writes the
/// effect in the same transaction as the scan's key and answer.
public enum CheckInRules {
    /// What applying a scan does to the guest's check-in.
    public enum Effect: Equatable, Sendable {
        /// The check-in stays as it is.
        case keep
        /// This scan becomes the guest's check-in (the first, or one earlier than the current).
        case becomeCheckIn(CheckIn)
        /// The check-in is undone.
        case removeCheckIn
    }

    public struct Decision: Equatable, Sendable {
        public var outcome: ScanOutcome
        public var effect: Effect
        public var event: CheckInEvent
    }

    /// The corrected scan time: the device's time plus its offset from the server's clock.
    public static func correctedTime(deviceTime: Date, offsetMs: Int64?) -> Date {
        deviceTime.addingTimeInterval(Double(offsetMs ?? 0) / 1000)
    }

    /// A scan refused before any guest is looked at (`unknown_list`: a list that is not the event's).
    public static func refused(_ scan: Scan, event: EventID, reason: String, receivedAt: Date) -> Decision {
        let outcome = ScanOutcome(kind: .rejected, reason: reason)
        let record = CheckInEvent(
            event: event, guest: scan.guest.text, key: scan.key, kind: scan.kind, door: scan.door,
            source: scan.source, deviceTime: scan.deviceTime,
            correctedTime: correctedTime(deviceTime: scan.deviceTime, offsetMs: scan.clockOffsetMs),
            receivedAt: receivedAt, arrived: scan.arrived, outcome: .rejected, reason: reason, reverts: scan.reverts)
        // No list: the one it named is not a list of the event (nor, perhaps, of any).
        return Decision(outcome: outcome, effect: .keep, event: record)
    }

    /// Decides one scan against the guest (nil when the event has no such guest) and the guest's current
    /// check-in. `knownOffsetMs` is the device's offset the server knows, used when the scan carries none.
    /// `closesAt` is the end of the event plus its grace: a check-in scanned (corrected time) after it is
    /// refused (`event_over`).
    ///
    /// - The earliest corrected scan time wins, whichever arrives first; a later one is `superseded`.
    /// - A re-confirmation appends an event and never makes a second check-in.
    /// - A revert undoes the check-in only if it reverts the scan that is the current check-in (by key; a
    ///   revert without a key reverts the current check-in if this device made it).
    public static func decide(
        _ scan: Scan, event: EventID, guest: Guest?, current: CheckIn?,
        knownOffsetMs: Int64?, receivedAt: Date, closesAt: Date? = nil
    ) -> Decision {
        let corrected = correctedTime(deviceTime: scan.deviceTime, offsetMs: scan.clockOffsetMs ?? knownOffsetMs)
        func decision(_ outcome: ScanOutcome, _ effect: Effect) -> Decision {
            let record = CheckInEvent(
                event: event, guest: scan.guest.text, key: scan.key, kind: scan.kind, door: scan.door,
                source: scan.source, deviceTime: scan.deviceTime, correctedTime: corrected, receivedAt: receivedAt,
                arrived: scan.arrived, outcome: outcome.kind, reason: outcome.reason, reverts: scan.reverts,
                list: scan.list)
            return Decision(outcome: outcome, effect: effect, event: record)
        }
        guard let guest else {
            return decision(ScanOutcome(kind: .rejected, reason: "unknown_guest"), .keep)
        }
        switch scan.kind {
        case .checkIn:
            if guest.status == .cancelled {
                return decision(ScanOutcome(kind: .rejected, checkIn: current?.summary, reason: "cancelled"), .keep)
            }
            if let closesAt, corrected > closesAt {
                return decision(ScanOutcome(kind: .rejected, checkIn: current?.summary, reason: "event_over"), .keep)
            }
            let mine = CheckIn(
                event: event, guest: guest.id, scanKey: scan.key, door: scan.door, deviceTime: scan.deviceTime,
                correctedTime: corrected, receivedAt: receivedAt, arrived: scan.arrived, list: scan.list)
            if let current, current.correctedTime <= corrected {
                return decision(ScanOutcome(kind: .superseded, checkIn: current.summary), .keep)
            }
            return decision(ScanOutcome(kind: .applied, checkIn: mine.summary), .becomeCheckIn(mine))
        case .reconfirm:
            return decision(ScanOutcome(kind: .recorded, checkIn: current?.summary), .keep)
        case .exit:
            // Always recorded, even for a cancelled guest (a door never holds anyone in); what it changes for
            // the entries after it is the reconciliation's to work out (`CheckInReconciliation`).
            return decision(
                ScanOutcome(kind: .recorded, checkIn: current?.summary, reason: current == nil ? "not_inside" : nil),
                .keep)
        case .revert:
            guard let current else {
                return decision(ScanOutcome(kind: .recorded, reason: "not_checked_in"), .keep)
            }
            let undoesCurrent =
                scan.reverts.map { $0 == current.scanKey } ?? (current.scanKey.deviceId == scan.key.deviceId)
            if undoesCurrent {
                // The event names the scan it undid, also when the kiosk did not (reconciliation reads it).
                var undo = decision(ScanOutcome(kind: .applied), .removeCheckIn)
                undo.event.reverts = current.scanKey
                return undo
            }
            return decision(ScanOutcome(kind: .recorded, checkIn: current.summary, reason: "not_the_check_in"), .keep)
        }
    }
}
