import KioskCore

/// Audit rows that could not be written yet because another process held the write lock, oldest first.
/// Bounded: when a write fails with more than `capacity` rows waiting, the oldest are dropped and counted, so a
/// kiosk locked out for hours does not grow without end.
struct AuditBacklog {
    /// About an hour of a busy door's rejected scans.
    static let defaultCapacity = 5_000

    var capacity = defaultCapacity
    private(set) var rows: [ScanAttempt] = []
    /// Rows dropped because the backlog was full, since the store was opened.
    private(set) var dropped = 0

    /// Keeps `attempt` to be written with the next write.
    mutating func append(_ attempt: ScanAttempt) { rows.append(attempt) }

    /// After a write failed: drops the oldest rows beyond `capacity`; returns how many.
    @discardableResult
    mutating func trim() -> Int {
        let excess = max(0, rows.count - capacity)
        rows.removeFirst(excess)
        dropped += excess
        return excess
    }

    /// Forgets the `count` oldest rows: they are in the database now.
    mutating func removeFirst(_ count: Int) { rows.removeFirst(min(count, rows.count)) }
}
