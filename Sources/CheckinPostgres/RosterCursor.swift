import CheckinCore

/// The cursors of PostgreSQL's roster answers, as text the kiosk keeps and sends back (digits, `:` and `,`).
///
/// - Change cursor `x2:<snapshot>`: the kiosk has every change its snapshot saw (`ChangeSnapshot`).
/// - Delta page `d2:<since>:<snapshot>:<xid>:<seq>`: a delta from `since` read in `snapshot` is delivered up
///   to the change position (xid, seq) in (transaction id, change number) order.
/// - First download page `p2:<snapshot>:<last guest id>`.
/// - Older servers' `x1:<xid>:<seq>` and `p1:<xid>:<seq>:<id>` are still read (`ChangeSnapshot.position`).
enum RosterCursor: Equatable, Sendable {
    case changes(ChangeSnapshot)
    case deltaPage(since: ChangeSnapshot, snapshot: ChangeSnapshot, xid: Int64, seq: Int64)

    init(_ text: String) throws {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        switch (parts.first, parts.count) {
        case ("x2", 4):
            self = .changes(try ChangeSnapshot(xmin: parts[1], xmax: parts[2], running: parts[3]))
        case ("d2", 9):
            guard let xid = Int64(parts[7]), let seq = Int64(parts[8]) else { throw RepositoryError.badCursor }
            self = .deltaPage(
                since: try ChangeSnapshot(xmin: parts[1], xmax: parts[2], running: parts[3]),
                snapshot: try ChangeSnapshot(xmin: parts[4], xmax: parts[5], running: parts[6]), xid: xid, seq: seq)
        case ("x1", 3):
            // Below Int64.max: `ChangeSnapshot.position` adds one to it (a real xid8 never comes near).
            guard let xid = Int64(parts[1]), let seq = Int64(parts[2]), (0..<Int64.max).contains(xid) else {
                throw RepositoryError.badCursor
            }
            self = .changes(ChangeSnapshot.position(xid: xid, seq: seq))
        default:
            throw RepositoryError.badCursor
        }
    }

    var text: String {
        switch self {
        case .changes(let snapshot):
            return "x2:" + snapshot.text
        case .deltaPage(let since, let snapshot, let xid, let seq):
            return "d2:\(since.text):\(snapshot.text):\(xid):\(seq)"
        }
    }

    /// A first download's page cursor: the snapshot it started in, and the last guest id delivered.
    static func downloadPage(_ snapshot: ChangeSnapshot, after id: String) -> String {
        "p2:\(snapshot.text):\(id)"
    }

    /// Reads a first download's page cursor.
    static func downloadPosition(_ text: String) throws -> (snapshot: ChangeSnapshot, after: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        switch (parts.first, parts.count) {
        case ("p2", 5):
            return (try ChangeSnapshot(xmin: parts[1], xmax: parts[2], running: parts[3]), String(parts[4]))
        case ("p1", 4):
            // Below Int64.max: `ChangeSnapshot.position` adds one to it (a real xid8 never comes near).
            guard let xid = Int64(parts[1]), let seq = Int64(parts[2]), (0..<Int64.max).contains(xid) else {
                throw RepositoryError.badCursor
            }
            return (ChangeSnapshot.position(xid: xid, seq: seq), String(parts[3]))
        default:
            throw RepositoryError.badCursor
        }
    }
}
