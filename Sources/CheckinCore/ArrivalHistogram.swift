import Foundation

/// Check-ins per door over the whole event so far, in bars of 5 minutes or, for a longer event, of the
/// shortest width that keeps them to `maximumBuckets`: the dashboard's chart, as numbers.
public struct ArrivalHistogram: Equatable, Sendable {
    /// The bar widths, shortest first.
    public static let widths: [TimeInterval] = [5, 10, 15, 30, 60, 120, 240, 480, 1440].map { $0 * 60 }
    /// At most this many buckets (the first ones dropped beyond the widest width).
    public static let maximumBuckets = 96

    /// The width of a bucket.
    public var bucket: TimeInterval

    /// The start of the first bucket.
    public var start: Date
    /// Doors in the order of their first check-in.
    public var doors: [String]
    /// `counts[bucket][door]`: check-ins in that bucket at `doors[door]`.
    public var counts: [[Int]]

    /// Buckets from the first check-in's (floored to the width) to `now`'s; empty without check-ins.
    public init(checkIns: [(door: String, at: Date)], now: Date) {
        let times = checkIns.map(\.at.timeIntervalSince1970)
        guard let first = times.min() else {
            start = now
            bucket = Self.widths[0]
            doors = []
            counts = []
            return
        }
        let last = max(now.timeIntervalSince1970, times.max() ?? first)
        func count(_ width: TimeInterval) -> Int {
            Int(((last - (first / width).rounded(.down) * width) / width).rounded(.down)) + 1
        }
        let width = Self.widths.first { count($0) <= Self.maximumBuckets } ?? Self.widths.last!
        bucket = width
        var from = (first / width).rounded(.down) * width
        let buckets = count(width)
        if buckets > Self.maximumBuckets { from += Double(buckets - Self.maximumBuckets) * width }
        start = Date(timeIntervalSince1970: from)
        var doors: [String] = []
        for checkIn in checkIns.sorted(by: { $0.at < $1.at }) where !doors.contains(checkIn.door) {
            doors.append(checkIn.door)
        }
        self.doors = doors
        var counts = Array(repeating: Array(repeating: 0, count: doors.count), count: min(buckets, Self.maximumBuckets))
        for checkIn in checkIns {
            let index = Int(((checkIn.at.timeIntervalSince1970 - from) / width).rounded(.down))
            guard index >= 0, index < counts.count, let door = doors.firstIndex(of: checkIn.door) else { continue }
            counts[index][door] += 1
        }
        self.counts = counts
    }

    /// The largest bucket (all doors together).
    public var peak: Int { counts.map { $0.reduce(0, +) }.max() ?? 0 }
}
