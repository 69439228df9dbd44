/// What one flush of the queue sent and what the server answered, per outcome.
public struct SyncReport: Equatable, Sendable, CustomStringConvertible {
    public var batches = 0
    public var sent = 0
    /// Stored as the guest's check-in (or recorded as an event): out of the queue.
    public var confirmed = 0
    /// The guest was checked in earlier elsewhere; kept as a check-in event on the server.
    public var superseded = 0
    /// Refused for good: moved to the sync failures.
    public var rejected = 0
    /// Still queued (no answer yet).
    public var pending = 0

    public init() {}

    public var description: String {
        "sent \(sent) in \(batches) batches: \(confirmed) confirmed, \(superseded) superseded, "
            + "\(rejected) rejected; \(pending) pending"
    }
}
