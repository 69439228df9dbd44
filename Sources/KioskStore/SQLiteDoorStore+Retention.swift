internal import GRDB
import KioskCore
import PassFormat

import struct Foundation.Date

/// An event's personal data on this kiosk: when it is deleted, and whether it was.
public struct PersonalDataRetentionState: Equatable, Sendable {
    public var event: EventID
    public var purgeAt: Date
    public var purgedAt: Date?

    public init(event: EventID, purgeAt: Date, purgedAt: Date?) {
        self.event = event
        self.purgeAt = purgeAt
        self.purgedAt = purgedAt
    }
}

extension SQLiteDoorStore {
    /// Keeps the server's purge date of each event (from a heartbeat answer). A date that moves (the organizer
    /// changed the event's end, or the server's retention) replaces the old one; an event already purged stays so.
    public func recordPersonalDataPurgeDates(_ dates: [EventID: Date]) throws {
        guard !dates.isEmpty else { return }
        try write("recording personal data purge dates", durability: .normal) { db in
            for (event, at) in dates {
                try db.execute(
                    sql: """
                        INSERT INTO event_retention (event, purge_at) VALUES (:event, :at)
                        ON CONFLICT (event) DO UPDATE SET purge_at = excluded.purge_at WHERE purged_at IS NULL
                        """,
                    arguments: ["event": event.rawValue, "at": at.storeMilliseconds])
            }
        }
    }

    /// The purge date of `event` and whether it has been done; nil before the server has said.
    public func personalDataRetention(event: EventID) throws -> PersonalDataRetentionState? {
        try read("reading the personal data purge date") { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT purge_at, purged_at FROM event_retention WHERE event = ?",
                    arguments: [event.rawValue])
            else { return nil }
            let purged: Int64? = row["purged_at"]
            return PersonalDataRetentionState(
                event: event, purgeAt: Date(storeMilliseconds: row["purge_at"]),
                purgedAt: purged.map(Date.init(storeMilliseconds:)))
        }
    }

    /// Deletes the personal data of every event whose purge date has passed at `now`, once: guests' names,
    /// e-mail addresses and notes in the roster, the name search words, cancellation reasons and what staff typed
    /// to find a guest (a name, often). The guest ids,
    /// check-ins, the queue (whose items carry no name) and the audit stay, so counts and the upload are
    /// unchanged. Each purge is audited. Afterwards the file is rebuilt (VACUUM) and the WAL truncated, so no
    /// freed page keeps an old name. Returns the events purged and how many guests each had.
    @discardableResult
    public func purgePersonalData(dueAt now: Date) throws -> [(event: EventID, guests: Int)] {
        let purged = try write("purging personal data") { db -> [(event: EventID, guests: Int)] in
            let due = try Int64.fetchAll(
                db, sql: "SELECT event FROM event_retention WHERE purged_at IS NULL AND purge_at <= ? ORDER BY event",
                arguments: [now.storeMilliseconds])
            var done: [(event: EventID, guests: Int)] = []
            for raw in due {
                try db.execute(
                    sql: """
                        UPDATE roster SET name = '', name_key = '', email = '', email_key = '', notes = ''
                        WHERE event = ?
                        """, arguments: [raw])
                let guests = db.changesCount
                try db.execute(sql: "DELETE FROM roster_words WHERE event = ?", arguments: [raw])
                // The server's signed rows kept to pass on to peers carry names too.
                try db.execute(sql: "DELETE FROM peer_guest_notices WHERE event = ?", arguments: [raw])
                try db.execute(sql: "UPDATE tombstones SET reason = '' WHERE event = ?", arguments: [raw])
                // What staff typed at the door is audited as they typed it, and a roster search types a name: the
                // typed text of the event's guests' manual entries goes, and of manual entries that matched no one
                // (the audit has no event; a typed text that found nobody is kept no longer than a name).
                try db.execute(
                    sql: """
                        UPDATE audit_log SET payload = ''
                        WHERE source = 'manual' AND payload <> ''
                            AND (guest_id IS NULL OR guest_id IN (SELECT guest_id FROM roster WHERE event = ?))
                        """, arguments: [raw])
                try db.execute(
                    sql: "UPDATE event_retention SET purged_at = ? WHERE event = ?",
                    arguments: [now.storeMilliseconds, raw])
                let event = EventID(UInt32(truncatingIfNeeded: raw))
                try AuditRecord(
                    ScanAttempt(
                        at: now, door: "", source: .manual, payload: "", guest: nil,
                        verdict: "personal_data_purged",
                        reason: "event \(raw): \(guests) guests' names, e-mail addresses and notes deleted, "
                            + "as the server's retention says")
                ).insert(db)
                done.append((event, guests))
            }
            return done
        }
        guard !purged.isEmpty else { return [] }
        try run("rebuilding the database after the purge") {
            try database.writeWithoutTransaction { db in
                try db.execute(sql: "VACUUM")
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            }
        }
        return purged
    }
}
