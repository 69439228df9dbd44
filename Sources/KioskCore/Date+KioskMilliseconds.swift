import struct Foundation.Date

extension Date {
    /// Whole milliseconds since 1970, rounded, saturating at the ends of `Int64` (and 0 for NaN) instead of
    /// trapping as `Int64(_: Double)` does on a time no clock gives but a bad replay rate once did
    /// (`kiosk --fps 1e-300`). Use this for every time that becomes an integer.
    public var kioskMilliseconds: Int64 {
        let ms = (timeIntervalSince1970 * 1000).rounded()
        if let exact = Int64(exactly: ms) { return exact }
        return ms.isNaN ? 0 : ms < 0 ? .min : .max
    }
}
