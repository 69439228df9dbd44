import struct Foundation.Date

extension Date {
    /// How the store keeps a time: whole milliseconds since 1970, rounded as `CheckIn.idempotencyKey` rounds.
    var storeMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    init(storeMilliseconds ms: Int64) {
        self.init(timeIntervalSince1970: Double(ms) / 1000)
    }
}
