import struct Foundation.Date

/// "Now" and waiting, injected so tests set the time instead of sleeping through backoff.
public protocol SyncClock: Sendable {
    /// The device's wall clock (what the kiosk stamps scans with).
    func now() -> Date
    /// Waits `duration` (or throws `CancellationError` when the task is cancelled).
    func sleep(for duration: Duration) async throws
}

/// The real clock: `Date()` and `Task.sleep`.
public struct SystemSyncClock: SyncClock {
    public init() {}
    public func now() -> Date { Date() }
    public func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}
