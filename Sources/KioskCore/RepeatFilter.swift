import struct Foundation.Date

/// Keeps a code held in front of the camera from being processed again and again.
///
/// A code is processed when first seen, then ignored while it keeps being seen; once it has been out of
/// sight for `window`, it is processed again (and then gives "already checked in"). The window slides with
/// each sighting, so a guest holding a phone still for ten seconds sees one verdict, not a flip to
/// "already checked in".
public struct RepeatFilter: Sendable {
    public var window: Double
    private var lastSeen: [[UInt8]: Date] = [:]

    public init(window: Double) {
        self.window = window
    }

    public mutating func shouldProcess(_ code: [UInt8], at now: Date) -> Bool {
        defer { lastSeen[code] = now }
        if lastSeen.count > 256 { lastSeen = lastSeen.filter { now.timeIntervalSince($0.value) < window } }
        guard let seen = lastSeen[code] else { return true }
        let age = now.timeIntervalSince(seen)
        return age >= window || age < 0
    }

    public mutating func reset() { lastSeen.removeAll() }
}
