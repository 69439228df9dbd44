import Foundation

/// Check-ins per 5 minutes per door: the dashboard's chart, as numbers.
public struct ArrivalHistogram: Equatable, Sendable {
    public static let bucket: TimeInterval = 5 * 60
    /// At most this many buckets (8 hours), the latest ones.
    public static let maximumBuckets = 96

    /// The start of the first bucket.
    public var start: Date
    /// Doors in the order of their first check-in.
    public var doors: [String]
    /// `counts[bucket][door]`: check-ins in that bucket at `doors[door]`.
    public var counts: [[Int]]

    /// Buckets from the first check-in's (floored to 5 minutes) to `now`'s; empty without check-ins.
    public init(checkIns: [(door: String, at: Date)], now: Date) {
        let times = checkIns.map(\.at.timeIntervalSince1970)
        guard let first = times.min() else {
            start = now
            doors = []
            counts = []
            return
        }
        let last = max(now.timeIntervalSince1970, times.max() ?? first)
        var from = (first / Self.bucket).rounded(.down) * Self.bucket
        let buckets = Int(((last - from) / Self.bucket).rounded(.down)) + 1
        if buckets > Self.maximumBuckets { from += Double(buckets - Self.maximumBuckets) * Self.bucket }
        start = Date(timeIntervalSince1970: from)
        var doors: [String] = []
        for checkIn in checkIns.sorted(by: { $0.at < $1.at }) where !doors.contains(checkIn.door) {
            doors.append(checkIn.door)
        }
        self.doors = doors
        var counts = Array(repeating: Array(repeating: 0, count: doors.count), count: min(buckets, Self.maximumBuckets))
        for checkIn in checkIns {
            let index = Int(((checkIn.at.timeIntervalSince1970 - from) / Self.bucket).rounded(.down))
            guard index >= 0, index < counts.count, let door = doors.firstIndex(of: checkIn.door) else { continue }
            counts[index][door] += 1
        }
        self.counts = counts
    }

    /// The largest bucket (all doors together).
    public var peak: Int { counts.map { $0.reduce(0, +) }.max() ?? 0 }
}
