import Foundation
import Synchronization

/// "Now", injected: the server's answers, expiries and receive times all ask it, so tests set the time.
public protocol ServerClock: Sendable {
    func now() -> Date
}

/// The machine's clock.
public struct SystemServerClock: ServerClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that stands still until told: for tests.
public final class ManualServerClock: ServerClock {
    private let time: Mutex<Date>

    public init(_ start: Date) { time = Mutex(start) }

    public func now() -> Date { time.withLock { $0 } }

    public func set(_ date: Date) { time.withLock { $0 = date } }

    public func advance(by seconds: TimeInterval) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
