import KioskCore

/// What the sync worker tells the door after each attempt: whether the server answered, how many check-ins
/// wait, where the roster stands, whether the event requires a newer kiosk, and the last failure (for the log
/// and `kioskctl status`).
public struct SyncStatus: Equatable, Sendable {
    public var connection: SyncConnection
    public var pending: Int
    public var lastError: String?
    public var roster: RosterFreshness
    /// The server answered 426 for this event: the door stops admitting (the queue still goes up).
    public var updateRequired: Bool
    /// Counts roster refreshes that completed: the door decides again the scans that waited for one.
    public var rosterRefreshes: Int

    public init(
        connection: SyncConnection, pending: Int, lastError: String? = nil, roster: RosterFreshness = .local,
        updateRequired: Bool = false, rosterRefreshes: Int = 0
    ) {
        self.connection = connection
        self.pending = pending
        self.lastError = lastError
        self.roster = roster
        self.updateRequired = updateRequired
        self.rosterRefreshes = rosterRefreshes
    }
}

/// What wakes the sync worker before its interval is up: the door asking for a round now (Ctrl-R, or a scan
/// not in the roster) and the worker's own timer. Requests made while one is pending merge into it.
public final class SyncRequests: Sendable {
    let wakes: AsyncStream<Void>
    private let input: AsyncStream<Void>.Continuation

    public init() {
        (wakes, input) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Runs a sync round (queue, then roster) as soon as the current one ends.
    public func syncNow() { input.yield() }
}
