import Foundation

/// How the sync monitor judges a device by its last contact with the server: a yellow "stale" pill after 10
/// minutes, a red "offline" pill after 30.
public enum DeviceHealth: String, Equatable, Sendable {
    case live
    case stale
    case offline
    /// Enrolled, but never reported in.
    case neverSeen = "never_seen"

    public static let staleAfter: TimeInterval = 10 * 60
    public static let offlineAfter: TimeInterval = 30 * 60

    public init(lastSeen: Date?, now: Date) {
        guard let lastSeen else {
            self = .neverSeen
            return
        }
        let silent = now.timeIntervalSince(lastSeen)
        self = silent >= Self.offlineAfter ? .offline : silent >= Self.staleAfter ? .stale : .live
    }

    /// No device has been heard from in the last 30 minutes (or none ever was): the monitor's distinct empty
    /// state, which says the venue's network may be down.
    public static func noneRecentlySeen(_ lastSeen: [Date?], now: Date) -> Bool {
        !lastSeen.contains { $0.map { now.timeIntervalSince($0) < offlineAfter } ?? false }
    }
}
