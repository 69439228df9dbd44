import struct Foundation.Date

/// The signs of life the service manager's watchdog is fed on: when the door loop last finished an event (it
/// answers a tick every few seconds even when nothing happens) and when the capture thread last went round its
/// loop while it had a camera to read. Only a door whose every part is alive feeds the watchdog.
public struct DoorLiveness: Equatable, Sendable {
    /// The door loop's last finished event.
    public var doorLoop: Date?
    /// The capture thread's last turn (frames arriving, or retrying a camera that is gone), while one runs.
    public var capture: Date?
    /// Whether a capture thread runs (a replay has none, and a camera loop that was stopped has none).
    public var captureRunning = false

    public init(doorLoop: Date? = nil, capture: Date? = nil, captureRunning: Bool = false) {
        self.doorLoop = doorLoop
        self.capture = capture
        self.captureRunning = captureRunning
    }

    /// A part that has shown no life for longer than `limit` seconds at `now`, or nil when all are alive.
    /// A part that has not started yet counts from `started`.
    public func stall(now: Date, since started: Date, limit: Double) -> Stall? {
        let door = now.timeIntervalSince(doorLoop ?? started)
        if door > limit { return .doorLoop(seconds: door) }
        if captureRunning {
            let capture = now.timeIntervalSince(capture ?? started)
            if capture > limit { return .capture(seconds: capture) }
        }
        return nil
    }

    /// Which part stopped, and for how long.
    public enum Stall: Equatable, Sendable, CustomStringConvertible {
        case doorLoop(seconds: Double)
        case capture(seconds: Double)

        public var description: String {
            switch self {
            case .doorLoop(let s): "the door loop (decode, database, display) has not answered for \(Int(s)) s"
            case .capture(let s): "the capture thread has not come back from the camera for \(Int(s)) s"
            }
        }
    }
}
