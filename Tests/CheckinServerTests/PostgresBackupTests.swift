import CheckinCore
import CheckinPostgres
import Foundation
import HummingbirdTesting
import PostgresNIO
import PostgresTestSupport
import Synchronization
import TestSupport
import Testing
import WireAPI

/// The PostgreSQL backup docs/BACKUPS.md documents: `pg_dump --format=custom` while check-ins arrive, `pg_restore` into
/// an empty database, and the server's repository on it finds every check-in acknowledged before the dump began.
@Suite(.dropsTestDatabases)
struct PostgresBackupTests {
    @Test func aDumpMadeWhileCheckInsArriveRestoresEveryAcknowledgedOne() async throws {
        let database = try await PostgresTestDatabase.migrated()
        let repository = try await database.repository()
        let harness = try await Harness(RepositoryFactory(name: "PostgreSQL") { repository })
        let (_, event, guests) = try await harness.event(guests: 150)
        let folder = TestFolders.make("pg-backup")
        let snapshot = Mutex<Set<String>>([])
        let dumpCommand = "\(Self.bin)/pg_dump --format=custom --file=checkin.dump '\(database.url)'"
        try await harness.app().test(.router) { client in
            let device = try await client.enrol(harness, event: event.id)
            var acknowledged = Set<String>()
            var dump: Task<(status: Int32, out: String), any Error>?
            for start in stride(from: 0, to: guests.count, by: 5) {
                let batch = guests[start..<min(start + 5, guests.count)]
                let items = batch.enumerated().map { offset, guest in
                    device.item(Int64(start + offset + 1), guest: guest, at: Harness.start)
                }
                let result = try await client.upload(items, event: event.id, as: device)
                #expect(result.outcomes.allSatisfy { $0.outcome == .applied })
                acknowledged.formUnion(batch.map(\.id.text))
                // The dump starts once some are acknowledged, while the rest keep coming.
                if dump == nil, acknowledged.count >= 30 {
                    let before = acknowledged
                    snapshot.withLock { $0 = before }
                    dump = Task { try await ChildProcess.shell(dumpCommand, in: folder) }
                }
            }
            let dumped = try await dump?.value
            #expect(dumped?.status == 0, "\(dumped?.out ?? "")")
        }
        let before = snapshot.withLock { $0 }
        #expect(before.count < guests.count, "the dump was made while uploads went on")

        let (name, url) = try await TestDatabases.make(migrated: false)
        let restore = try await ChildProcess.shell(
            "\(Self.bin)/pg_restore --no-owner --dbname='\(url)' checkin.dump", in: folder)
        #expect(restore.status == 0, "\(restore.out)")
        var configuration = PostgresClient.Configuration(url: url)!
        configuration.database = name
        let client = PostgresClient(configuration: configuration)
        TestDatabases.run(client)
        let restored = PostgresCheckinRepository(client: client, secrets: database.secrets)
        try await restored.migrate()
        let held = Set(try await restored.checkIns(event: event.id).map(\.guest.text))
        #expect(before.isSubset(of: held), "missing: \(before.subtracting(held).sorted())")
        let all = Set(try await repository.checkIns(event: event.id).map(\.guest.text))
        #expect(held.isSubset(of: all))
        #expect(all.count == guests.count)
        #expect(try await restored.event(event.id)?.name == "Gala")
    }

    /// The PostgreSQL programs of the same major version as the test server (scripts/postgres.sh).
    static let bin: String = {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        let newest = versions.compactMap(Int.init).max().map(String.init) ?? "15"
        return "/usr/lib/postgresql/\(newest)/bin"
    }()
}
