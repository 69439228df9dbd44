import CheckinCore
import CheckinSQLite
import CheckinServer
import Foundation
import Logging
import PassFormat
import PostgresTestSupport
import TestSupport
import Testing
import WireAPI

/// An event's personal data is purged `PersonalDataRetention.days` after it ends, by the server's own worker on
/// its clock; guest ids, check-ins, counts and the audit stay.
@Suite(.dropsTestDatabases)
struct PersonalDataRetentionTests {
    static func guests(_ count: Int) -> [NewGuest] {
        (0..<count).map {
            NewGuest(
                name: "Zoë Quillfeather-\($0)", email: "quillfeather\($0)@example.org", phone: "+49 30 5550\($0)",
                checkInNote: "wheelchair-quillnote-\($0)", arrivalAlert: "tell-quillboss-\($0)")
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func theWorkerPurgesAnEventsPersonalDataOnlyOnceItsRetentionHasRunOut(_ factory: RepositoryFactory)
        async throws
    {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event(guests: 0)
        let folder = RepositoryFactory.temporaryFolder()
        let steps = PassIssuanceTests.steps(h, folder: folder)
        let added = try await h.repository.addGuests(Self.guests(4), event: event.id, at: h.clock.now())
        #expect(try await PassIssuanceTests.worker(h, steps).runDue() > 0)
        let images = try FileManager.default.contentsOfDirectory(atPath: folder + "/passes")
        #expect(images.count == 4)
        _ = try await h.admin.checkInFromPage(added[0].id.text, event: event.id, nonce: "0123456789abcdef0123")
        let counts = try await h.repository.counts(event: event.id)

        var logger = Logger(label: "purge-test")
        logger.logLevel = .critical
        let worker = PersonalDataPurgeWorker(
            repository: h.repository, retention: PersonalDataRetention(days: 30),
            passImages: PassImageStore(directory: folder + "/passes"), clock: h.clock, logger: logger)
        // A day short of the retention: nothing.
        h.clock.set(event.endsAt.addingTimeInterval(29 * 86_400))
        #expect(try await worker.purgeDue().isEmpty)
        #expect(try await h.repository.guest(added[1].id, event: event.id)?.email == "quillfeather1@example.org")

        h.clock.set(event.endsAt.addingTimeInterval(30 * 86_400 + 1))
        let purged = try await worker.purgeDue()
        #expect(purged.map(\.event) == [event.id])
        #expect(purged.first?.guests == 4 && purged.first?.passes == 4)
        for guest in added {
            let after = try #require(try await h.repository.guest(guest.id, event: event.id))
            #expect(after.name.isEmpty && after.email == nil && after.phone == nil)
            #expect(after.checkInNote == nil && after.arrivalAlert == nil)
            for issuance in try await h.repository.issuances(guest: guest.id, event: event.id) {
                #expect(issuance.pass == nil && issuance.image == nil && issuance.storedName == nil)
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/passes").isEmpty)
        // What stays: the counts, the check-in, the audit of who did what.
        #expect(try await h.repository.counts(event: event.id) == counts)
        #expect(try await h.repository.checkIns(event: event.id).map(\.guest) == [added[0].id])
        let audit = try await h.repository.auditEntries(tenant: tenant.id, limit: 10)
        #expect(audit.contains { $0.action == "personal_data_purged" && $0.detail.contains("4 pass images") })
        #expect(try await h.repository.personalDataPurgedAt(event: event.id) == h.clock.now())
        // Once: a later round finds nothing, and the first purge's time stays.
        h.clock.advance(by: 3600)
        #expect(try await worker.purgeDue().isEmpty)
        #expect(try await h.repository.purgePersonalData(event: event.id, at: h.clock.now()).guests == 0)
        #expect(
            try await h.repository.personalDataPurgedAt(event: event.id)
                == event.endsAt.addingTimeInterval(30 * 86_400 + 1))
    }

    /// After the purge, none of the guests' names, addresses, phones or notes is anywhere in the SQLite
    /// database's file or its WAL (secure_delete, then a truncating checkpoint); before it, they are.
    @Test func nothingPersonalRemainsInTheDatabaseFile() async throws {
        let path = RepositoryFactory.temporaryFolder() + "/checkin.db"
        let repository = try RepositoryFactory.sqlite(path: path)
        let h = try await Harness(RepositoryFactory(name: "SQLite file") { repository })
        let (_, event, _) = try await h.event(guests: 0)
        let personal = Self.guests(60)
        let added = try await h.repository.addGuests(personal, event: event.id, at: h.clock.now())
        // Edited once: the first version of each row is somewhere in the file's history too.
        for guest in added.prefix(20) {
            let edited = GuestInput(
                name: guest.name, email: guest.email, phone: (guest.phone ?? "") + "9",
                checkInNote: guest.checkInNote, arrivalAlert: guest.arrivalAlert)
            _ = try await h.admin.editGuest(guest.id.text, edited, event: event.id)
        }
        let texts = personal.flatMap { [$0.name, $0.email!, $0.phone!, $0.checkInNote!, $0.arrivalAlert!] }
        func found() throws -> [String] {
            var bytes = Data()
            for suffix in ["", "-wal"] { bytes += FileManager.default.contents(atPath: path + suffix) ?? Data() }
            let text = String(decoding: bytes, as: UTF8.self)
            return texts.filter { text.contains($0) }
        }
        #expect(try found().count == texts.count, "the test looks where the data is")

        _ = try await repository.purgePersonalData(event: event.id, at: h.clock.now())
        let left = try found()
        #expect(left.isEmpty, "\(left.prefix(5))")
        #expect(try await repository.guestList(event: event.id, GuestQuery(), offset: 0, limit: 100).total == 60)
    }
}
