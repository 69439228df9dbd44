import PassFormat
import SignedRecords

import struct Foundation.Date

/// Where the kiosk's copy of the server's roster stands for one event (kept in the kiosk's database).
///
/// Enrolment starts it incomplete: until the first download has fetched its last page, every scan gets
/// `rosterIncomplete`. The download goes a page at a time; each page and the next page's cursor are written in
/// one transaction, so an interrupted download resumes from the last completed page. Once complete, deltas
/// run from `changeCursor`.
public struct RosterSyncState: Equatable, Sendable {
    public var event: EventID
    public var complete: Bool
    /// The first download's next page (nil: start from the first).
    public var nextPage: String?
    /// The server's change cursor: as of the first download's start, then after the last delta applied.
    public var changeCursor: String?
    /// Guests fetched by the first download so far, and how many the server said it would send.
    public var fetched: Int
    public var total: Int?
    /// When the roster was last brought up to date with the server (a completed download or delta).
    public var fetchedAt: Date?

    public init(
        event: EventID, complete: Bool = false, nextPage: String? = nil, changeCursor: String? = nil,
        fetched: Int = 0, total: Int? = nil, fetchedAt: Date? = nil
    ) {
        self.event = event
        self.complete = complete
        self.nextPage = nextPage
        self.changeCursor = changeCursor
        self.fetched = fetched
        self.total = total
        self.fetchedAt = fetchedAt
    }

    /// What the door's status line says about the roster.
    public var freshness: RosterFreshness {
        if complete, let fetchedAt { return .current(fetchedAt: fetchedAt) }
        return .downloading(fetched: fetched, total: total)
    }
}

/// The roster on the status line: from a CSV (a standalone door), downloading, or fetched at a time.
public enum RosterFreshness: Equatable, Sendable {
    case local
    case downloading(fetched: Int, total: Int?)
    case current(fetchedAt: Date)

    /// "roster 1200/100000", "roster 4 min old", or nil for a standalone door.
    public func label(now: Date) -> String? {
        switch self {
        case .local:
            return nil
        case .downloading(let fetched, let total):
            return "roster \(fetched)/\(total.map(String.init) ?? "?")"
        case .current(let at):
            return "roster " + Self.age(seconds: now.timeIntervalSince(at))
        }
    }

    /// "just now", "4 min old", "2 h old".
    static func age(seconds: Double) -> String {
        let s = max(0, seconds)
        if s < 60 { return "just now" }
        if s < 3600 { return "\(Int(s / 60)) min old" }
        return "\(Int(s / 3600)) h old"
    }
}

/// How far an incomplete roster download has come: what `rosterIncomplete` shows.
public struct RosterProgress: Equatable, Sendable {
    public var fetched: Int
    public var total: Int?

    public init(fetched: Int, total: Int?) {
        self.fetched = fetched
        self.total = total
    }
}

/// One guest row from the server, as the kiosk applies it: the guest, the row's version (an older version than
/// the kiosk holds is ignored) and the guest's check-in at any door.
public struct RosterUpdate: Equatable, Sendable {
    public var guest: RosterGuest
    public var version: Int64
    public var checkIn: CheckIn?
    /// The server's scan that is the check-in (its device and queue sequence), when the server says.
    public var checkInScan: ServerScan?

    public init(guest: RosterGuest, version: Int64, checkIn: CheckIn?, checkInScan: ServerScan? = nil) {
        self.guest = guest
        self.version = version
        self.checkIn = checkIn
        self.checkInScan = checkInScan
    }
}

/// A scan as the server knows it: the device that made it and its queue sequence there.
public struct ServerScan: Hashable, Sendable {
    public var deviceId: String
    public var sequence: Int64

    public init(deviceId: String, sequence: Int64) {
        self.deviceId = deviceId
        self.sequence = sequence
    }
}

/// What applying a page of the server's roster did.
public struct RosterApplied: Equatable, Sendable {
    public var applied = 0
    /// Rows older than what the kiosk holds.
    public var older = 0
    /// Guests with a check-in or revert still queued here: their roster row is updated, their local check-in is
    /// left as it is until the server has answered for the queued item.
    public var protected = 0

    public init() {}
}

extension DoorStatus {
    /// Whether the roster is a complete download (not still downloading).
    public var isRosterCurrent: Bool {
        if case .current = roster { return true }
        return false
    }
}
