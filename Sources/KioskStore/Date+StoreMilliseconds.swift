import KioskCore

import struct Foundation.Date

extension Date {
    /// How the store keeps a time: whole milliseconds since 1970, rounded as `CheckIn.idempotencyKey` rounds.
    ///
    /// Bounded: a time beyond what an Int64 of milliseconds holds (about 292 million years either side of
    /// 1970, e.g. a replay at `--fps 1e-300`) is clamped to `Int64.max` or `Int64.min` rather than trapping;
    /// an undefined time (NaN) is kept as 0. See `Date.millisecondsSince1970`.
    var storeMilliseconds: Int64 { millisecondsSince1970 }

    init(storeMilliseconds ms: Int64) {
        self.init(timeIntervalSince1970: Double(ms) / 1000)
    }

    /// Seconds since 1970 as the store keeps them.
    static func storeMilliseconds(seconds: Double) -> Int64 {
        milliseconds(seconds: seconds)
    }
}
