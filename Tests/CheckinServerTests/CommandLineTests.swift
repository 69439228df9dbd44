import CheckinCore
import CheckinSQLite
import Foundation
import KioskCore
import PostgresTestSupport
import TestSupport
import Testing

/// The admin subcommands through the real `checkin-server` binary, on a database file.
@Suite("checkin-server admin commands", .dropsTestDatabases)
struct CommandLineTests {
    /// Runs `checkin-server` with `arguments`; returns the exit status, standard output and standard error.
    static func run(_ arguments: [String], in folder: String) async throws -> (status: Int32, out: String, err: String)
    {
        try await ChildProcess.run("checkin-server", arguments, in: folder)
    }

    @Test func anEventFromTheCommandLine() async throws {
        let folder = RepositoryFactory.temporaryFolder()
        func ok(_ arguments: [String]) async throws -> String {
            let r = try await Self.run(arguments, in: folder)
            #expect(r.status == 0, "\(arguments): \(r.err)")
            return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        // No --database: checkin.db in the working folder.
        let tenant = try await ok(["create-tenant", "--name", "Acme"])
        #expect(tenant == "1")
        #expect(FileManager.default.fileExists(atPath: folder + "/checkin.db"))
        let event = try await ok([
            "create-event", "--tenant", tenant, "--name", "Gala", "--starts", "2026-12-01T18:00:00Z",
            "--ends", "2026-12-01T23:00:00Z", "--venue", "Hall", "--minimum-kiosk-version", "1.2.0",
        ])
        #expect(event == "1")

        // A bad line: its number is reported and nothing is imported.
        try "guest_id,name,email,party_size\nNOU3WYMHOVZQ4Q2T,Ada,ada@example.org,1\nHHQ5P4QJWF4W4XCA,Bob,,lots\n"
            .write(toFile: folder + "/bad.csv", atomically: true, encoding: .utf8)
        let bad = try await Self.run(["import-guests", "--event", event, "--csv", "bad.csv"], in: folder)
        #expect(bad.status != 0)
        #expect(bad.err.contains("line 3"))
        #expect(bad.err.contains("nothing imported"))
        #expect(bad.out.isEmpty)
        // A Latin-1 export: refused with its line (read as a String first, it was imported as "Zo\u{FFFD}").
        let latin1 = Array("name,email\nAda,ada@example.org\nZo".utf8) + [0xEB] + Array(",zoe@example.org\n".utf8)
        try Data(latin1).write(to: URL(fileURLWithPath: folder + "/latin1.csv"))
        let refused = try await Self.run(["import-guests", "--event", event, "--csv", "latin1.csv"], in: folder)
        #expect(refused.status != 0)
        #expect(refused.err.contains("line 3") && refused.err.contains("UTF-8"), "\(refused.err)")
        #expect(refused.out.isEmpty)

        try "guest_id,name,email,party_size\nNOU3WYMHOVZQ4Q2T,Ada,ada@example.org,1\nHHQ5P4QJWF4W4XCA,\"Bob, Jr.\",,3\n"
            .write(toFile: folder + "/good.csv", atomically: true, encoding: .utf8)
        await #expect(try ok(["import-guests", "--event", event, "--csv", "good.csv"]) == "2")
        let walkIn = try await ok(["add-guest", "--event", event, "--name", "Walk In", "--party-size", "2"])
        #expect(walkIn.count == 16)
        await #expect(
            try ok(["cancel-guest", "--event", event, "--guest", "NOU3-WYMH-OVZQ-4Q2T"]) == "NOU3WYMHOVZQ4Q2T")
        let missing = try await Self.run(["cancel-guest", "--event", event, "--guest", "AAAAAAAAAAAAAAAA"], in: folder)
        #expect(missing.status != 0)
        #expect(missing.err.contains("does not exist"))

        let code = try await ok(["enrolment-code", "--event", event])
        #expect(code.count == 19)
        let token = try await ok(["admin-token"])
        #expect(token.hasPrefix("kadm_"))

        // Nothing checked in yet: an empty export; then nothing of the token or code in the database file.
        await #expect(try ok(["export", "--event", event]).isEmpty)
        let bytes =
            try Data(contentsOf: URL(fileURLWithPath: folder + "/checkin.db"))
            + ((try? Data(contentsOf: URL(fileURLWithPath: folder + "/checkin.db-wal"))) ?? Data())
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains(token))
        #expect(!text.contains(code.replacingOccurrences(of: "-", with: "")))
        #expect(!text.contains(code))
    }

    @Test func offlineAlertsAreSetShownAndTurnedOffFromTheCommandLine() async throws {
        let folder = RepositoryFactory.temporaryFolder()
        _ = try await Self.run(["create-tenant", "--name", "Acme"], in: folder)
        _ = try await Self.run(
            [
                "create-event", "--tenant", "1", "--name", "Gala", "--starts", "2026-12-01T18:00:00Z",
                "--ends", "2026-12-01T23:00:00Z",
            ], in: folder)
        let plain = try await Self.run(
            ["offline-alerts", "--event", "1", "--webhook-url", "http://10.0.0.2/hook"], in: folder)
        #expect(plain.status != 0 && plain.err.contains("give an https URL"), "\(plain.err)")
        let set = try await Self.run(
            ["offline-alerts", "--event", "1", "--email", "ops@example.org", "--webhook-url", "https://example.org/h"],
            in: folder)
        #expect(set.status == 0, "\(set.err)")
        #expect(set.out.contains("email\tops@example.org\n") && set.out.contains("webhook_secret\twhsec_"))
        // The secret is printed whole once, when made; afterwards only its last 4 characters.
        let secret = try #require(set.out.split(separator: "\n").first { $0.hasPrefix("webhook_secret\t") })
            .dropFirst("webhook_secret\t".count)
        let shown = try await Self.run(["offline-alerts", "--event", "1"], in: folder)
        #expect(!shown.out.contains(secret) && shown.out.contains("webhook_secret\t…\(secret.suffix(4))\n"))
        #expect(shown.out.hasPrefix("email\tops@example.org\nwebhook_url\thttps://example.org/h\n"))
        let off = try await Self.run(["offline-alerts", "--event", "1", "--off"], in: folder)
        #expect(off.out == "email\t-\nwebhook_url\t-\n" && off.err.contains("off"))
        let missing = try await Self.run(["offline-alerts", "--event", "7", "--email", "ops@example.org"], in: folder)
        #expect(missing.status != 0 && missing.err.contains("event 7 does not exist"), "\(missing.err)")
    }

    /// A name with a tab and a line break (a quoted CSV field may hold both) stays inside its one line of seven
    /// tab-separated fields; accents are kept.
    @Test func doubleEntriesKeepOneLinePerEntryWhateverTheName() async throws {
        let folder = RepositoryFactory.temporaryFolder()
        let path = folder + "/server.db"
        let h = try await Harness(RepositoryFactory(name: "file") { try RepositoryFactory.sqlite(path: path) })
        let (_, event, _) = try await h.event(guests: 0)
        let guest = try await h.repository.addGuests(
            [NewGuest(name: "Ana\tMaría\nNúñez")], event: event.id, at: h.clock.now())[0]
        let north = try await h.enrolDirectly(event: event, door: "North")
        let south = try await h.enrolDirectly(event: event, door: "South")
        let t = h.clock.now()
        for (device, at) in [(north, t.addingTimeInterval(9)), (south, t)] {
            let scan = Scan(
                key: ScanKey(deviceId: device.id, epoch: device.queueEpoch, sequence: 1), guest: guest.id,
                kind: .checkIn, deviceTime: at, clockOffsetMs: 0, arrived: 1, door: device.door, source: "camera")
            _ = try await h.repository.apply(scan, event: event.id, device: device, receivedAt: t)
        }
        let report = try await Self.run(["double-entries", "--database", path, "--event", "\(event.id)"], in: folder)
        #expect(report.status == 0, "\(report.err)")
        let lines = report.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1, "\(report.out)")
        let fields = lines.first?.split(separator: "\t", omittingEmptySubsequences: false) ?? []
        #expect(fields.count == 7 && fields[1] == "Ana María Núñez", "\(fields)")
    }

    @Test func exportPrintsCheckInsAndCheckInEventsAsJSONLines() async throws {
        let folder = RepositoryFactory.temporaryFolder()
        let path = folder + "/server.db"
        let h = try await Harness(RepositoryFactory(name: "file") { try RepositoryFactory.sqlite(path: path) })
        let (_, event, guests) = try await h.event()
        let north = try await h.enrolDirectly(event: event, door: "North")
        let south = try await h.enrolDirectly(event: event, door: "South")
        let t = h.clock.now()
        func scan(_ device: Device, _ seq: Int64, _ guest: Guest, _ at: Date) -> Scan {
            Scan(
                key: ScanKey(deviceId: device.id, epoch: device.queueEpoch, sequence: seq), guest: guest.id,
                kind: .checkIn,
                deviceTime: at, clockOffsetMs: 0, arrived: 1, door: device.door, source: "camera")
        }
        _ = try await h.repository.apply(
            scan(south, 1, guests[0], t.addingTimeInterval(60)), event: event.id, device: south, receivedAt: t)
        _ = try await h.repository.apply(scan(north, 1, guests[0], t), event: event.id, device: north, receivedAt: t)
        _ = try await h.repository.apply(
            scan(north, 2, guests[1], t.addingTimeInterval(1)), event: event.id, device: north, receivedAt: t)

        let r = try await Self.run(["export", "--database", path, "--event", "\(event.id)"], in: folder)
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(
            objects.map { $0["record"] as? String } == [
                "check_in", "check_in", "check_in_event", "check_in_event", "check_in_event", "double_entry",
            ])
        #expect(objects[0]["door"] as? String == "North")
        #expect(objects[0]["guestId"] as? String == guests[0].id.text)
        // South's later scan, displaced by North's earlier one that arrived second: superseded, naming North.
        #expect(objects[2]["outcome"] as? String == "superseded")
        #expect(objects[2]["checkInDoor"] as? String == "North")
        #expect(objects[3]["outcome"] as? String == "applied")
        #expect(objects[5]["door"] as? String == "South")
        #expect(objects[5]["checkInDoor"] as? String == "North")
        #expect(objects[5]["gapSeconds"] as? Double == 60)

        // The report alone: a line per double entry, tab-separated; with --json the export's record.
        let report = try await Self.run(["double-entries", "--database", path, "--event", "\(event.id)"], in: folder)
        let fields = report.out.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false)
        }
        #expect(fields.count == 1 && fields.first?.count == 7, "\(report.out)")
        #expect(fields.first.map { [String($0[2]), String($0[4]), String($0[6])] } == ["North", "South", "60"])
        let json = try await Self.run(
            ["double-entries", "--database", path, "--event", "\(event.id)", "--json"], in: folder)
        #expect(json.out.split(separator: "\n").map(String.init) == [lines[5]], "\(json.out)")
        #expect(objects[0]["correctedAt"] as? String == "2026-12-01T17:00:00.000Z")
    }
}

/// The admin subcommands on PostgreSQL (`--postgres URL`).
@Suite("checkin-server admin commands on PostgreSQL", .dropsTestDatabases)
struct PostgresCommandLineTests {
    /// Three processes start on an empty database at once: the migrations run once (advisory lock), and
    /// each makes its tenant.
    @Test func processesStartingTogetherMigrateOnce() async throws {
        let database = try await PostgresTestDatabase.make()
        let folder = RepositoryFactory.temporaryFolder()
        let results = try await withThrowingTaskGroup(of: (Int32, String, String).self) { group in
            for i in 0..<3 {
                group.addTask {
                    try await CommandLineTests.run(
                        ["create-tenant", "--name", "T\(i)", "--postgres", database.url], in: folder)
                }
            }
            var all: [(Int32, String, String)] = []
            for try await r in group { all.append(r) }
            return all
        }
        for r in results { #expect(r.0 == 0, "\(r.2)") }
        #expect(Set(results.map { $0.1.trimmingCharacters(in: .whitespacesAndNewlines) }) == ["1", "2", "3"])
        #expect(!FileManager.default.fileExists(atPath: folder + "/checkin.db"))
        let bad = try await CommandLineTests.run(
            ["create-tenant", "--name", "X", "--postgres", "mysql://x"], in: folder)
        #expect(bad.0 != 0)
        #expect(bad.2.contains("--postgres"))
    }
}
