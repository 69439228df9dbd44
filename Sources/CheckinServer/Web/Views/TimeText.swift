import Foundation

/// Times as the organizer reads them: "4 min ago (10:02)".
struct TimeText {
    var now: Date
    var timeZone: TimeZone
    /// The zone's offset at `date` (daylight saving included), applied by hand: a calendar per time costs more
    /// than the rest of a monitor row.
    func offset(at date: Date) -> Int { timeZone.secondsFromGMT(for: date) }

    /// Whole seconds of `interval`, within ±10^13 (300,000 years; 0 for NaN): `Int(_:)` of a Double past Int's
    /// range traps, and a time shown comes from a device, a form or a cookie.
    static func wholeSeconds(_ interval: Double) -> Int {
        guard interval.isFinite else { return 0 }
        return Int(min(max(interval.rounded(.down), -1e13), 1e13))
    }

    func time(_ date: Date) -> String {
        let seconds = (Self.wholeSeconds(date.timeIntervalSince1970) + offset(at: date)) % 86400
        let ofDay = seconds < 0 ? seconds + 86400 : seconds
        let hour = ofDay / 3600
        let minute = ofDay % 3600 / 60
        return (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
    }

    /// The zone the times are in, as the pages name it ("UTC", "Europe/Berlin").
    var zone: String {
        ["GMT", "UTC", "Etc/UTC", "Etc/GMT"].contains(timeZone.identifier) ? "UTC" : timeZone.identifier
    }

    /// "1 device", "2 devices": a count and its noun, singular for one.
    static func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
    }

    func relative(_ date: Date) -> String {
        let seconds = Self.wholeSeconds(now.timeIntervalSince(date))
        let ago =
            switch seconds {
            case ..<60: "just now"
            case ..<3600: "\(seconds / 60) min ago"
            case ..<86400: "\(seconds / 3600) h \(seconds % 3600 / 60) min ago"
            default: "\(seconds / 86400) days ago"
            }
        return "\(ago) (\(time(date)))"
    }

    /// "2026-12-01 18:00": the day too, for times that need not be today's.
    func dayAndTime(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0) + time(date)
    }
}
