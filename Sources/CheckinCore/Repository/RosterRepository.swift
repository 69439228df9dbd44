import Foundation
import PassFormat

/// The roster as kiosks download it: pages, changes since a cursor, and how far behind a cursor is.
/// One role of `CheckinRepository`.
public protocol RosterRepository: Sendable {
    /// The first download, ordered by guest id. `page` nil starts it: the answer's `changeCursor` is the
    /// change cursor as of the start and `total` the number of guests; pass `nextPage` to go on.
    /// Throws `RepositoryError.badCursor` for a cursor it did not make.
    func rosterPage(event: EventID, page: String?, limit: Int) async throws -> RosterSlice
    /// Every guest row changed after `since` (a `changeCursor`), cancelled guests and check-in changes
    /// included, oldest change first; `nextPage` is set while more rows wait. Never skips a change.
    func rosterChanges(event: EventID, since: String, limit: Int) async throws -> RosterSlice
    /// For each change cursor, how many guest rows of the event changed after it: how far behind a kiosk
    /// that holds it is (0: up to date). Cursors this repository did not make are left out.
    func rosterChangesBehind(event: EventID, cursors: Set<String>) async throws -> [String: Int]
}
