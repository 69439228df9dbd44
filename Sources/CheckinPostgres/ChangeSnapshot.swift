import CheckinCore

/// Which transactions' changes a kiosk has: a PostgreSQL snapshot (`pg_current_snapshot()`), the one its last
/// roster answer was read in. Every transaction the snapshot sees as finished (below `xmin`, or below `xmax` and
/// not in `running`) had all its changes in that answer; the changes of every other transaction (running then,
/// or started later) are still to come.
///
/// A transaction id is not commit order, so a single position cannot say this: transaction 41 may commit after
/// 42 has been read. The snapshot can, without waiting for anyone: a delta reads the rows of every transaction
/// its cursor's snapshot did not see, in a new snapshot, which sees everything committed before the request
/// arrived (read-your-writes).
struct ChangeSnapshot: Equatable, Sendable {
    /// No transaction below it was running.
    var xmin: Int64
    /// Every transaction from it on had not started.
    var xmax: Int64
    /// Transactions between the two that were still running, ascending.
    var running: [Int64]

    /// Whether the changes of transaction `xid` are in this snapshot (it had committed, or had no changes).
    func sees(_ xid: Int64) -> Bool {
        if xid < xmin { return true }
        if xid >= xmax { return false }
        return !running.contains(xid)
    }

    /// The lowest transaction whose changes may be missing: rows below it need not be read.
    var lowestUnseen: Int64 { running.first ?? xmax }

    /// PostgreSQL's text form, `xmin:xmax:xip,xip`.
    var text: String { "\(xmin):\(xmax):" + running.map(String.init).joined(separator: ",") }

    /// Reads PostgreSQL's text form, or three parts of a cursor (xmin, xmax, the running list).
    init(xmin: Substring, xmax: Substring, running: Substring) throws {
        guard let low = Int64(xmin), let high = Int64(xmax), low >= 0, low <= high else {
            throw RepositoryError.badCursor
        }
        var ids: [Int64] = []
        if !running.isEmpty {
            for part in running.split(separator: ",", omittingEmptySubsequences: false) {
                guard let id = Int64(part), id >= low, id < high else { throw RepositoryError.badCursor }
                ids.append(id)
            }
        }
        self.init(xmin: low, xmax: high, running: ids.sorted())
    }

    init(text: String) throws {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw RepositoryError.badCursor }
        try self.init(xmin: parts[0], xmax: parts[1], running: parts[2])
    }

    init(xmin: Int64, xmax: Int64, running: [Int64]) {
        self.xmin = xmin
        self.xmax = xmax
        self.running = running
    }

    /// The snapshot an older position cursor (`x1:<xid>:<seq>`, every change at or before it delivered)
    /// stands for: every transaction below it seen (or, when only part of `xid` was delivered, below `xid`).
    /// Rows may come twice; none is missed.
    static func position(xid: Int64, seq: Int64) -> ChangeSnapshot {
        let end = seq == Int64.max ? xid + 1 : xid
        return ChangeSnapshot(xmin: end, xmax: end, running: [])
    }
}
