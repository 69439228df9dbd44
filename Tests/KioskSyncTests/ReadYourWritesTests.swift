import Foundation
import KioskCore
import PassFormat
import PostgresTestSupport
import Testing
import WireAPI

@testable import KioskSync

/// Read-your-writes of the roster deltas, against real `checkin-server` processes: a change the organizer
/// made (a cancellation, a walk-in) is in the very next delta a kiosk asks for, and a delta that says it is
/// complete is, while other kiosks upload check-ins and the servers issue passes (transactions running all the
/// time, which a horizon of the oldest running transaction held every delta back behind).
/// The two tests run at once (each has its own servers, folder and database): one after the other they were the
/// longest chain of the suite (about 900 s of the 920 s suite in the CI run of stop 30).
@Suite("Roster deltas: read-your-writes on real servers", .dropsTestDatabases)
struct ReadYourWritesTests {
    static let rounds = 1000

    @Test("SQLite: 1,000 rounds of a change, then a delta at once")
    func sqlite() async throws {
        let folder = LiveProcesses.temporaryFolder()
        let first = LiveServer(folder: folder)
        try await withTaskExecutorPreference(LiveProcesses.waiting) { try await Self.run(servers: [first]) }
    }

    @Test("PostgreSQL, two server processes: 1,000 rounds of a change, then a delta at once")
    func postgres() async throws {
        let url = try await LivePostgres.makeDatabase()
        let folder = LiveProcesses.temporaryFolder()
        let first = LiveServer(folder: folder, postgres: url)
        let second = LiveServer(folder: folder, postgres: url)
        try await withTaskExecutorPreference(LiveProcesses.waiting) { try await Self.run(servers: [first, second]) }
    }

    /// One tenant, one event with 400 guests with e-mails (so issuance is busy), a device that uploads
    /// check-ins all the time, and a reader: each round changes a guest through one server, then asks the other
    /// for the delta from the reader's cursor, pages and all; the change must be in it, and a complete answer
    /// must have every change made before it.
    static func run(servers: [LiveServer]) async throws {
        let main = servers[0]
        try await LiveProcesses.makeCertificates(in: main.folder)
        await #expect(try main.admin(["create-tenant", "--name", "Acme"]) == "1")
        _ = try await main.admin([
            "create-event", "--tenant", "1", "--name", "Gala", "--starts", "2020-01-01T00:00:00Z", "--ends",
            "2036-12-01T23:00:00Z",
        ])
        var generator = SystemRandomNumberGenerator()
        let ids = (0..<400).map { _ in GuestID.random(using: &generator) }
        let csv =
            "guest_id,name,email\n"
            + ids.enumerated().map { "\($1.text),Guest \($0),g\($0)@example.org" }.joined(separator: "\n")
        let adminToken = try await main.admin(["admin-token"])
        let readerCode = try await main.admin(["enrolment-code", "--event", "1"])
        let uploaderCode = try await main.admin(["enrolment-code", "--event", "1"])
        for server in servers { try await server.start() }
        defer { for server in servers { server.stopWithoutWaiting() } }
        let ca = main.folder + "/ca.pem"

        let reader = try await Self.enrol(servers[0], code: readerCode, door: "North", ca: ca)
        let uploader = try await Self.enrol(servers[servers.count - 1], code: uploaderCode, door: "South", ca: ca)

        // The reader's first download, then its cursor.
        var cursor = try await CheckinClient.withClient(serverURL: servers[0].url, token: reader.token, caFile: ca) {
            client in
            var page: String?
            var cursor: String?
            repeat {
                let answer = try await client.rosterPage(event: 1, page: page, changesSince: nil).answer
                cursor = cursor ?? answer.changeCursor
                page = answer.nextPage
            } while page != nil
            return cursor!
        }

        // Then 400 guests with e-mail addresses: the servers issue their passes during the rounds.
        try csv.write(toFile: main.folder + "/guests.csv", atomically: true, encoding: .utf8)
        let imported = try await LiveProcesses.shell(
            "curl -s --fail-with-body --cacert ca.pem -H 'Authorization: Bearer \(adminToken)' "
                + "-H 'Content-Type: text/csv' --data-binary @guests.csv \(servers[0].url)/v1/admin/events/1/guests/import",
            in: main.folder)
        try #require(imported.status == 0 && imported.out.contains("400"), "\(imported.out)")

        // Uploads beside every round, through the last server: a batch of five check-ins in flight while the
        // change is made and the delta read (round and round the guests: after the first pass, repeats).
        let uploadClient = try CheckinClient(
            serverURL: servers[servers.count - 1].url, token: uploader.token, caFile: ca)
        var uploaded = 0
        var sequence: Int64 = 0
        func batch(_ round: Int) -> CheckInBatch {
            CheckInBatch(
                items: (0..<5).map { i in
                    sequence += 1
                    return CheckInItem(
                        key: ItemKey(deviceId: uploader.deviceId, epoch: uploader.queueEpoch, sequence: sequence),
                        guestId: ids[(round * 5 + i) % ids.count].text, kind: .checkIn, scannedAt: Date(),
                        clockOffsetMs: 0, arrived: 1, door: "South", source: "camera")
                })
        }

        var missed: [String] = []
        var incompleteAnswers = 0
        var walkIns = 0
        var cancelled = 0
        var lastWalkIn = ""
        let clients = try servers.map { try CheckinClient(serverURL: $0.url, token: reader.token, caFile: ca) }
        let admins = try servers.map { try CheckinClient(serverURL: $0.url, token: adminToken, caFile: ca) }
        defer {
            for client in clients + admins { Task { await client.shutdown() } }
        }
        for round in 0..<rounds {
            let items = batch(round)
            async let upload = uploadClient.upload(items, event: 1)
            // The change, through one server...
            let changer = admins[round % admins.count]
            let expected: (id: String, status: GuestStatus)
            if round % 2 == 0 {
                let added = try await changer.send(
                    .POST, "/v1/admin/events/1/guests",
                    body: GuestInput(name: "Walk-in \(round)", email: "w\(round)@example.org"), what: "adding a guest",
                    read: { try APICoding.decoder().decode(GuestRecord.self, from: $0) }
                ).answer
                expected = (added.id, .active)
                lastWalkIn = added.id
                walkIns += 1
            } else {
                // An imported guest (whose check-ins are being uploaded), then the walk-ins of earlier rounds.
                let id = round / 2 < ids.count ? ids[round / 2].text : lastWalkIn
                let answer = try await changer.send(
                    .POST, "/v1/admin/events/1/guests/\(id)/cancel", body: nil as GuestInput?,
                    what: "cancelling a guest",
                    read: { try APICoding.decoder().decode(GuestRecord.self, from: $0) }
                ).answer
                expected = (answer.id, .cancelled)
                cancelled += 1
            }
            // ... then the delta at once, through the other.
            let client = clients[(round + 1) % clients.count]
            var page: String?
            var delivered: [String: GuestStatus] = [:]
            var last: RosterPage
            repeat {
                last = try await client.rosterPage(event: 1, page: page, changesSince: cursor).answer
                for guest in last.guests { delivered[guest.id] = guest.status }
                if !last.complete { incompleteAnswers += 1 }
                page = last.nextPage
            } while page != nil
            #expect(last.complete)
            cursor = try #require(last.changeCursor)
            uploaded += try await upload.answer.outcomes.count
            if delivered[expected.id] != expected.status {
                missed.append(
                    "round \(round): \(expected.id) \(expected.status) not in the delta (\(delivered.count) rows)")
            }
        }
        await uploadClient.shutdown()
        #expect(missed.isEmpty, "\(missed.count) changes missed: \(missed.prefix(5))")
        #expect(walkIns + cancelled == rounds)
        #expect(uploaded == rounds * 5, "the uploads ran beside the rounds")
        print(
            "read-your-writes (\(servers.count) server processes): \(rounds) rounds, \(missed.count) missed, "
                + "\(uploaded) check-ins uploaded meanwhile, "
                + "\(incompleteAnswers) pages not complete")
    }

    static func enrol(_ server: LiveServer, code: String, door: String, ca: String) async throws -> Enrolment {
        try await CheckinClient.withClient(serverURL: server.url, token: nil, caFile: ca) { client in
            try await client.redeem(EnrolmentRequest(code: code, door: door, kioskVersion: "1.0.0")).answer
        }
    }
}
