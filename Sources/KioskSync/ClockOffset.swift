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
}
