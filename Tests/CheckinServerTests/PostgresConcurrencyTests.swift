import CheckinCore
import CheckinPostgres
import Foundation
import KioskCore
import Logging
import PostgresNIO
import PostgresTestSupport
import Testing

/// What only PostgreSQL can get wrong: transactions that commit out of change-number order, and two server
/// processes (two clients, two repositories) on one database.
@Suite("PostgreSQL: commit order and two processes", .dropsTestDatabases)
struct PostgresConcurrencyTests {
    static let logger = Logger(label: "test")

    /// Cancels a guest the way the repository does, inside an open transaction on `connection`; returns the
    /// change number it took.
    static func cancelInOpenTransaction(_ connection: PostgresConnection, guest: Guest) async throws -> Int64 {
        let rows = try await connection.query(
            """
            UPDATE guest SET status = 'cancelled', version = version + 1,
                change_xid = pg_current_xact_id()::text::bigint, change_seq = nextval('change_sequence'),
                updated_at = now()
            WHERE event_id = \(Int64(guest.event.rawValue)) AND id = \(guest.id.text) RETURNING change_seq
            """, logger: logger
        ).collect()
        return try rows[0].makeRandomAccess()["change_seq"].decode(Int64.self)
    }

    /// One transaction takes a change number and waits; another takes a higher one and commits; a kiosk reads
    /// its delta (the later change must wait: it is above a change that may still commit); then the first
    /// commits. The next delta brings both: nothing is skipped.
    @Test func aChangeThatCommitsLateIsStillDelivered() async throws {
        let database = try await PostgresTestDatabase.migrated()
        let repository = try await database.repository()
        let h = try await Harness(RepositoryFactory(name: "PostgreSQL, shared") { repository })
        let (_, event, guests) = try await h.event(guests: 3)
        let start = try await repository.rosterPage(event: event.id, page: nil, limit: 500).changeCursor
        let writer = database.client()

        let (lateSeq, earlySeq, held) = try await writer.withConnection { connection in
            try await connection.query("BEGIN", logger: Self.logger)
            let lateSeq = try await Self.cancelInOpenTransaction(connection, guest: guests[0])
            // Meanwhile another process cancels a second guest: a higher number, committed first.
            let other = try await repository.cancelGuest(guests[1].id, event: event.id, at: h.clock.now())
            #expect(other.status == .cancelled)
            let earlySeq = try await repository.guestChangeNumber(guests[1], database: database)
            let held = try await repository.rosterChanges(event: event.id, since: start, limit: 500)
            try await connection.query("COMMIT", logger: Self.logger)
            return (lateSeq, earlySeq, held)
        }
        #expect(lateSeq < earlySeq)
        // While the lower number may still commit, the cursor does not pass it.
        #expect(!held.guests.contains { $0.id == guests[0].id })
        let after = try await repository.rosterChanges(event: event.id, since: held.changeCursor, limit: 500)
        let delivered = Set((held.guests + after.guests).map(\.id))
        #expect(delivered == [guests[0].id, guests[1].id])
        #expect(after.guests.first { $0.id == guests[0].id }?.status == .cancelled)
    }

    /// Read-your-writes: a change committed before the delta was asked for is in it, even while an older
    /// transaction is still running (the horizon of the oldest running transaction held it back, and the answer
    /// still said it was complete).
    @Test func aCommittedChangeIsInTheNextDeltaWhileAnOlderTransactionRuns() async throws {
        let database = try await PostgresTestDatabase.migrated()
        let repository = try await database.repository()
        let h = try await Harness(RepositoryFactory(name: "PostgreSQL, shared") { repository })
        let (_, event, guests) = try await h.event(guests: 3)
        let start = try await repository.rosterPage(event: event.id, page: nil, limit: 500).changeCursor
        let other = database.client()
        let answer = try await other.withConnection { connection in
            // An older transaction with an id, still running (a pass being issued, an upload).
            try await connection.query("BEGIN", logger: Self.logger)
            try await connection.query("SELECT pg_current_xact_id()", logger: Self.logger)
            _ = try await repository.cancelGuest(guests[1].id, event: event.id, at: h.clock.now())
            let answer = try await repository.rosterChanges(event: event.id, since: start, limit: 500)
            try await connection.query("COMMIT", logger: Self.logger)
            return answer
        }
        #expect(answer.isComplete)
        #expect(answer.guests.map(\.id) == [guests[1].id])
        #expect(answer.guests.first?.status == .cancelled)
        // Nothing comes twice once that transaction is over, and nothing is lost.
        let next = try await repository.rosterChanges(event: event.id, since: answer.changeCursor, limit: 500)
        #expect(next.guests.isEmpty)
    }

    /// A delta of several pages, while a transaction the first page's snapshot saw running commits a change
    /// behind the pages already read: the last page does not say complete; it hands the kiosk a delta from the
    /// first page's snapshot, which brings that change.
    @Test func aChangeBehindTheReadPagesMakesTheDeltaAskAgain() async throws {
        let database = try await PostgresTestDatabase.migrated()
        let repository = try await database.repository()
        let h = try await Harness(RepositoryFactory(name: "PostgreSQL, shared") { repository })
        let (_, event, guests) = try await h.event(guests: 5)
        let start = try await repository.rosterPage(event: event.id, page: nil, limit: 500).changeCursor
        let other = database.client()
        let pages = try await other.withConnection { connection in
            try await connection.query("BEGIN", logger: Self.logger)
            try await connection.query("SELECT pg_current_xact_id()", logger: Self.logger)
            for guest in guests[1...4] {
                _ = try await repository.cancelGuest(guest.id, event: event.id, at: h.clock.now())
            }
            let first = try await repository.rosterChanges(event: event.id, since: start, limit: 2)
            // The old transaction changes a guest, and commits: its id is below the first page's position.
            _ = try await Self.cancelInOpenTransaction(connection, guest: guests[0])
            try await connection.query("COMMIT", logger: Self.logger)
            var pages = [first]
            while let next = pages.last!.nextPage, pages.count < 10 {
                pages.append(try await repository.rosterChanges(event: event.id, since: next, limit: 2))
            }
            return pages
        }
        #expect(pages.count >= 3, "two pages of four changes, then a delta from the first page's snapshot")
        #expect(pages.last!.isComplete)
        let delivered = pages.flatMap(\.guests)
        #expect(Set(delivered.map(\.id)) == Set(guests.map(\.id)))
        #expect(delivered.last { $0.id == guests[0].id }?.status == .cancelled)
    }

    /// Many writers on their own connections, each transaction waiting a little between taking its change
    /// number and committing, while a reader follows the deltas page by page: every change arrives.
    @Test func aReaderFollowingDeltasMissesNothingWhileTransactionsCommitOutOfOrder() async throws {
        let database = try await PostgresTestDatabase.migrated()
        let repository = try await database.repository()
        let h = try await Harness(RepositoryFactory(name: "PostgreSQL, shared") { repository })
        let (_, event, guests) = try await h.event(guests: 120)
        let start = try await repository.rosterPage(event: event.id, page: nil, limit: 500).changeCursor
        let writers = (0..<2).map { _ in database.client() }
        let other = try await database.repository()  // a second "server process" adding walk-ins
        let now = h.clock.now()

        let seen = try await withThrowingTaskGroup(of: Set<String>.self) { group in
            for w in 0..<4 {
                let mine = guests.enumerated().filter { $0.offset % 4 == w }.map(\.element)
                let client = writers[w % 2]
                group.addTask {
                    for guest in mine {
                        try await client.withConnection { connection in
                            try await connection.query("BEGIN", logger: Self.logger)
                            _ = try await Self.cancelInOpenTransaction(connection, guest: guest)
                            try await Task.sleep(for: .milliseconds(Int.random(in: 0...8)))
                            try await connection.query("COMMIT", logger: Self.logger)
                        }
                    }
                    return []
                }
            }
            group.addTask {
                var added: Set<String> = []
                for i in 0..<20 {
                    let walkIn = try await other.addGuests([NewGuest(name: "Walk-in \(i)")], event: event.id, at: now)
                    added.insert(walkIn[0].id.text)
                }
                return added.union(["walk-ins"])
            }
            group.addTask {
                var cursor = start
                var changed = Set<String>()
                var rounds = 0
                let wanted = Set(guests.map(\.id.text))
                while rounds < 20_000 {
                    let page = try await repository.rosterChanges(event: event.id, since: cursor, limit: 25)
                    for guest in page.guests {
                        if guest.status == .cancelled || !wanted.contains(guest.id.text) {
                            changed.insert(guest.id.text)
                        }
                    }
                    cursor = page.changeCursor
                    rounds += 1
                    if changed.count == 140 { break }
                    if page.guests.isEmpty { try await Task.sleep(for: .milliseconds(2)) }
                }
                return changed.union(["reader"])
            }
            var byTask: [Set<String>] = []
            for try await part in group { byTask.append(part) }
            return byTask
        }
        let walkIns = seen.first { $0.contains("walk-ins") }!.subtracting(["walk-ins"])
        let read = seen.first { $0.contains("reader") }!.subtracting(["reader"])
        #expect(read == Set(guests.map(\.id.text)).union(walkIns))
    }

    /// Two server processes receive the same uploads (retries through two load-balanced servers) and two
    /// doors' conflicting scans of each guest, all at once: one check-in per guest, the earliest corrected
    /// scan's; one check-in event per key; a repeated key gets the same answer, except that a North scan
    /// answered `applied` before South's earlier one arrived is `superseded` from then on.
    @Test func twoProcessesApplyingTheSameAndConflictingScansKeepOneCheckInPerGuest() async throws {
        let database = try await PostgresTestDatabase.migrated()
        let first = try await database.repository()
        let second = try await database.repository()
        let h = try await Harness(RepositoryFactory(name: "PostgreSQL, shared") { first })
        let (_, event, guests) = try await h.event(guests: 30)
        let north = try await h.enrolDirectly(event: event, door: "North")
        let south = try await h.enrolDirectly(event: event, door: "South")
        let t = h.clock.now()
        // South scanned each guest 5 s before North did: South's scan is the check-in.
        let scan: @Sendable (Device, Int) -> Scan = { device, i in
            Scan(
                key: ScanKey(deviceId: device.id, epoch: device.queueEpoch, sequence: Int64(i + 1)),
                guest: guests[i].id, kind: .checkIn,
                deviceTime: t.addingTimeInterval(device.id == south.id ? 0 : 5), clockOffsetMs: 0, arrived: 1,
                door: device.door, source: "camera")
        }
        let answers = try await withThrowingTaskGroup(of: (String, ScanOutcome).self) { group in
            for i in guests.indices {
                for (device, repository) in [(north, first), (south, second), (north, second), (south, first)] {
                    group.addTask {
                        let item = scan(device, i)
                        let outcome = try await repository.apply(item, event: event.id, device: device, receivedAt: t)
                        return (item.key.description, outcome)
                    }
                }
            }
            var answers: [String: [ScanOutcome]] = [:]
            for try await (key, outcome) in group { answers[key, default: []].append(outcome) }
            return answers
        }
        #expect(answers.count == 60)
        for (key, outcomes) in answers {
            if key.hasPrefix(south.id) {
                #expect(outcomes.allSatisfy { $0 == outcomes[0] && $0.kind == .applied }, "key \(key): \(outcomes)")
            } else {
                #expect(
                    outcomes.allSatisfy { $0.kind == .applied || $0.kind == .superseded }, "key \(key): \(outcomes)")
            }
        }
        // Asked again now, every North key answers superseded with South's check-in.
        for i in guests.indices {
            let again = try await second.apply(scan(north, i), event: event.id, device: north, receivedAt: t)
            #expect(again.kind == .superseded && again.checkIn?.door == "South")
        }
        let checkIns = try await first.checkIns(event: event.id)
        #expect(checkIns.count == 30)
        #expect(checkIns.allSatisfy { $0.door == "South" })
        #expect(try await second.checkInEvents(event: event.id).count == 60)
    }
}

extension PostgresCheckinRepository {
    /// The guest's current change number, read straight from the table (tests only).
    func guestChangeNumber(_ guest: Guest, database: PostgresTestDatabase) async throws -> Int64 {
        let client = database.client()
        let rows = try await client.query(
            "SELECT change_seq FROM guest WHERE event_id = \(Int64(guest.event.rawValue)) AND id = \(guest.id.text)"
        ).collect()
        return try rows[0].makeRandomAccess()["change_seq"].decode(Int64.self)
    }
}
