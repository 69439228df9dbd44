import Foundation

extension Event {
    /// Whether a scan whose corrected time is `corrected` sits outside the event's window: before 2 hours ahead
    /// of its start (the lead of the offline alerts: doors open early, kiosks are set up), or after it closes
    /// (end plus grace). Such a scan is not refused for being early (early doors); the export and the organizer's
    /// dashboard flag it, so a wrong kiosk clock or a forged time stands out. (A check-in after the close is
    /// refused, `event_over`: its check-in event is flagged too.)
    public func isOutsideWindow(_ corrected: Date) -> Bool {
        corrected < startsAt.addingTimeInterval(-OfflineWatch.leadTime) || corrected > closesAt
    }
}
