import KioskCore

import struct Foundation.Date

/// The device's offset from the server's clock, measured at one exchange: the server's time minus the
/// midpoint of the request's send and receive times, in milliseconds (positive: the device is slow).
public enum ClockOffset {
    public static func milliseconds(serverTime: Date, sentAt: Date, receivedAt: Date) -> Int64 {
        let midpoint = sentAt.timeIntervalSince1970 + receivedAt.timeIntervalSince(sentAt) / 2
        let offset = (serverTime.timeIntervalSince1970 - midpoint) * 1000
        guard offset.isFinite else { return 0 }
        return Int64(max(min(offset.rounded(), 9.0e15), -9.0e15))
    }

    /// How far `milliseconds` may be off: half the exchange's round trip (at least 1 ms).
    public static func uncertaintyMilliseconds(sentAt: Date, receivedAt: Date) -> Int64 {
        let half = receivedAt.timeIntervalSince(sentAt) * 500
        guard half.isFinite else { return Int64.max / 4 }
        return Int64(max(min(half.rounded(.up), 9.0e15), 1))
    }

    /// The contact an exchange makes: its receive time, the offset and its uncertainty.
    public static func contact(serverTime: Date, sentAt: Date, receivedAt: Date) -> SyncContact {
        SyncContact(
            at: receivedAt,
            clockOffsetMilliseconds: milliseconds(serverTime: serverTime, sentAt: sentAt, receivedAt: receivedAt),
            clockOffsetUncertaintyMilliseconds: uncertaintyMilliseconds(sentAt: sentAt, receivedAt: receivedAt))
    }
}
