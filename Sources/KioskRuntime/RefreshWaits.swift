import KioskCore
import PassFormat

import struct Foundation.Date

/// Camera scans that got `notInRoster` while the server answered: each asked the sync worker for the roster's
/// changes, and is decided again when a refresh completes (a walk-in added a minute ago is admitted on the
/// first scan). A scan waits for at most two refreshes (one may have been under way when it asked) and 30 s.
struct RefreshWaits {
    private struct Waiting {
        var guest: GuestID
        var since: Date
        var refreshesSeen = 0
    }

    private var waiting: [Waiting] = []
    private var refreshes = 0
    static let limit = 30.0

    mutating func add(_ guest: GuestID, at time: Date) {
        waiting.removeAll { $0.guest == guest }
        waiting.append(Waiting(guest: guest, since: time))
    }

    /// The sync worker's refresh count: when it moved, decides the waiting scans again and returns what they
    /// gave (a scan whose guest is still unknown gives nothing and is not audited again).
    mutating func refreshed(count: Int, now: Date, door: DoorController) -> [ScanResult] {
        guard count != refreshes else { return [] }
        refreshes = count
        var results: [ScanResult] = []
        var still: [Waiting] = []
        for var scan in waiting where now.timeIntervalSince(scan.since) < Self.limit {
            if let result = door.decideAgain(guest: scan.guest, at: now, payload: "rescan after a roster refresh") {
                results.append(result)
                continue
            }
            scan.refreshesSeen += 1
            if scan.refreshesSeen < 2 { still.append(scan) }
        }
        waiting = still
        return results
    }
}
