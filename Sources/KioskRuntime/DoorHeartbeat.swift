import Foundation
import KioskCore
import Synchronization

/// Where the door's parts leave their signs of life for the watchdog (`DoorLiveness`), from any thread.
public final class DoorHeartbeat: Sendable {
    private let liveness = Mutex(DoorLiveness())

    public init() {}

    public var current: DoorLiveness { liveness.withLock { $0 } }

    /// The door loop finished an event.
    public func doorLoopAnswered(at time: Date = Date()) { liveness.withLock { $0.doorLoop = time } }

    /// The capture thread went round its loop.
    public func captureTurned(at time: Date = Date()) { liveness.withLock { $0.capture = time } }

    /// A capture thread starts (true) or has ended (false).
    public func captureRunning(_ running: Bool, at time: Date = Date()) {
        liveness.withLock {
            $0.captureRunning = running
            $0.capture = running ? time : nil
        }
    }
}
