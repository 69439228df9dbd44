import struct Foundation.Date

extension Date {
    /// Whole milliseconds since 1970, rounded half away from zero, clamped to the range of Int64: a time no
    /// Int64 of milliseconds holds (about 292 million years either side of 1970, e.g. a replay at
    /// `--fps 1e-300`) gives `Int64.max` or `Int64.min` instead of trapping; NaN gives 0.
    public var millisecondsSince1970: Int64 { Self.milliseconds(seconds: timeIntervalSince1970) }

    /// Seconds since 1970 as whole milliseconds, clamped as `millisecondsSince1970` is.
    public static func milliseconds(seconds: Double) -> Int64 {
        let ms = (seconds * 1000).rounded()
        if ms.isNaN { return 0 }
        if ms >= 0x1p63 { return .max }  // 2^63 itself is one past Int64.max
        if ms <= -0x1p63 { return .min }
        return Int64(ms)
    }
}
