/// Instants a sender states (seconds or milliseconds since 1970: a webhook's timestamp, a door's hello), checked
/// against this process's clock without trapping, whatever the sender wrote.
public enum ClockDistance {
    /// Seconds since 1970 that a sender may state: 1970 to the end of the year 9999. Parsed into this range,
    /// the difference of two of them, and its magnitude, fit in an Int64.
    public static let seconds: ClosedRange<Int64> = 0...253_402_300_799
    /// The same in milliseconds.
    public static let milliseconds: ClosedRange<Int64> = 0...253_402_300_799_999

    /// `time - reference` (in their unit), or nil when the difference does not fit in an Int64.
    public static func offset(of time: Int64, from reference: Int64) -> Int64? {
        let (difference, overflow) = time.subtractingReportingOverflow(reference)
        return overflow ? nil : difference
    }

    /// Whether `time` lies within `tolerance` of `reference`, before or after it (in their unit).
    public static func isWithin(_ tolerance: Int64, of reference: Int64, time: Int64) -> Bool {
        guard let offset = offset(of: time, from: reference) else { return false }
        // `magnitude`, not `abs`: `abs(Int64.min)` traps.
        return offset.magnitude <= tolerance.magnitude
    }
}
