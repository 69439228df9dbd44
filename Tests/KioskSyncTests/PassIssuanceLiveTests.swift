import CheckinWebhooks
import DedicatedThreads
import Foundation
import ImageFiles
import KioskCore
import KioskDecoding
import KioskScenes
import PostgresTestSupport
import TestSupport
import Testing
import WireAPI

/// Pass issuance with the real processes: a `checkin-server serve` over HTTPS sending through a real SMTP
/// server on loopback (aiosmtpd, Tests/SMTP/relay.py), guests from signed webhooks or a CSV import, a kiosk
/// that synced with that server, and the server killed (SIGKILL) between steps and at random moments.
@Suite("Pass issuance, live: webhook to e-mail to door, and crashes", .serialized, .dropsTestDatabases)
struct PassIssuanceLiveTests {
    /// A server (tenant 1, event 1) sending pass e-mails to `relay`, not yet started; its webhook secret.
    static func server(relay: TestSMTPRelay, postgres: String? = nil, setUp: Bool = true) async throws -> (
        LiveServer, String
    ) {
        // On a port the system chooses; without --public-url the passes link to the server's own address.
        let server = LiveServer(folder: LiveProcesses.temporaryFolder(), postgres: postgres)
        try await LiveProcesses.makeCertificates(in: server.folder)
        var secret = ""
        if setUp {
            await #expect(try server.admin(["create-tenant", "--name", "Acme"]) == "1")
            await #expect(
                try server.admin([
                    "create-event", "--tenant", "1", "--name", "Winter Gala", "--venue", "Main Hall", "--starts",
                    "2030-01-01T18:00:00Z", "--ends", "2030-01-01T23:00:00Z",
                ]) == "1")
            secret = try await server.admin(["webhook-secret", "--tenant", "1"])
        }
        server.serveArguments = [
            "--smtp-url", "smtp+plain://127.0.0.1:\(relay.port)", "--mail-from", "passes@checkin.test",
            "--pass-dir", "passes",
        ]
        return (server, secret)
    }

    /// POSTs a guest webhook signed with `secret` (curl, the server's CA); returns the answer's body, or nil when
    /// `serverMayDie` and the server died before its answer was sent (curl: empty reply or connection reset). A
    /// server made to crash right after an issuance step may crash before it writes the answer to the request that
    /// started the issuance: the guest is committed by then, and a sender would retry with the same webhook-id.
    static func webhook(
        _ server: LiveServer, secret: String, id: String, payload: GuestWebhookPayload, serverMayDie: Bool = false
    ) async throws -> GuestWebhookResult? {
        let body = try APICoding.encoder().encode(payload)
        let file = server.folder + "/webhook-\(id).json"
        try body.write(to: URL(fileURLWithPath: file))
        let timestamp = Int64(Date().timeIntervalSince1970)
        let signature = StandardWebhook.sign(
            id: id, timestamp: timestamp, body: [UInt8](body), secret: try WebhookSecretKey(secret))
        let r = try await LiveProcesses.shell(
            """
            curl -s --fail-with-body --cacert ca.pem -H 'content-type: application/json' -H 'webhook-id: \(id)' \
            -H 'webhook-timestamp: \(timestamp)' -H 'webhook-signature: \(signature)' --data-binary @\(file) \
            \(server.url)/v1/webhooks/tenants/1/guests
            """, in: server.folder)
        if serverMayDie, [52, 56].contains(r.status) { return nil }
        try #require(r.status == 0, "webhook \(id): \(r.out)")
        return try APICoding.decoder().decode(GuestWebhookResult.self, from: Data(r.out.utf8))
    }

    /// The relay's messages once at least `count` arrived (at most `seconds`).
    static func mail(_ relay: TestSMTPRelay, count: Int, seconds: Double = 60) async throws -> [ReceivedMail] {
        for _ in 0..<Int(seconds * 10) {
            let received = try relay.received()
            if received.count >= count { return received }
            try await Task.sleep(for: .milliseconds(100))
        }
        let received = try relay.received()
        Issue.record("\(received.count) of \(count) messages arrived in \(seconds) s")
        return received
    }

    /// The relay's messages once every address in `addresses` has received one (or after `seconds`, recorded).
    static func mail(_ relay: TestSMTPRelay, reaching addresses: Set<String>, seconds: Double = 60) async throws
        -> [ReceivedMail]
    {
        for _ in 0..<Int(seconds * 10) {
            let received = try relay.received()
            if addresses.isSubset(of: Set(received.flatMap(\.envelope.rcptTos))) { return received }
            try await Task.sleep(for: .milliseconds(100))
        }
        let received = try relay.received()
        let missing = addresses.subtracting(received.flatMap(\.envelope.rcptTos))
        Issue.record(
            "\(missing.count) of \(addresses.count) addresses got nothing in \(seconds) s: \(missing.sorted())")
        return received
    }

    static func header(_ mail: ReceivedMail, _ name: String) -> String? {
        mail.headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    @Test func aSignedWebhookBecomesAnEmailWhoseQRCodeTheKioskAdmits() async throws {
        let relay = try await TestSMTPRelay.start()
        let (server, secret) = try await Self.server(relay: relay)
        try await server.start()
        defer { server.stopWithoutWaiting() }
        let added = try await #require(
            await Self.webhook(
                server, secret: secret, id: "msg_e2e_1",
                payload: GuestWebhookPayload(
                    type: "guest.created",
                    data: GuestWebhookData(
                        eventId: 1, reference: "shop-1001", name: "Zoë Quinn", email: "zoe@example.org", partySize: 2)))
        )
        #expect(added.outcome == "added")
        let code = try #require(added.confirmationCode)

        let mails = try await Self.mail(relay, count: 1)
        let mail = try #require(mails.first)
        #expect(mails.count == 1 && mail.envelope.rcptTos == ["zoe@example.org"])
        #expect(mail.defects.isEmpty, "\(mail.defects)")
        #expect(Self.header(mail, "Subject") == "Your pass for Winter Gala")
        #expect(Self.header(mail, "Message-ID")?.hasPrefix("<pass-") == true)
        // HTML and text alternatives, the QR code inline (related), referenced by its Content-ID.
        let html = try #require(mail.html)
        let text = try #require(mail.text)
        #expect(html.contains("Winter Gala") && html.contains("Party of 2") && html.contains("Zoë"))
        #expect(text.contains(code) && text.contains(server.ownAddress.uppercased() + "/P/"))
        let image = try #require(mail.images.first)
        let contentID = try #require(image.contentID).trimmingCharacters(in: CharacterSet(charactersIn: "<>"))
        #expect(html.contains("cid:" + contentID) && image.contentType == "image/png")

        // The inline image holds the pass URL; the pass page shows the pass.
        let qr = try ImageFile.decode(data: image.data, name: "pass.png")
        let payloads = KioskDecoder().decode(qr).map { String(decoding: $0.payload, as: UTF8.self) }
        let url = try #require(payloads.first)
        #expect(payloads.count == 1 && url.hasPrefix(server.ownAddress.uppercased() + "/P/") && text.contains(url))
        let page = try await LiveProcesses.shell(
            "curl -s --cacert ca.pem '\(url.lowercased().prefix(server.ownAddress.count))/p/\(url.split(separator: "/").last!)'",
            in: server.folder)
        #expect(page.out.contains("Zoë") && page.out.contains(code))

        // A kiosk that synced with this server, trusting the server's exported keys, admits that image held
        // up to its camera (the e-mail's image printed and held up, as the camera sees it).
        let door = LiveProcesses.temporaryFolder()
        try FileManager.default.copyItem(atPath: server.folder + "/ca.pem", toPath: door + "/ca.pem")
        try TestDatabaseKey.write(to: door + "/" + TestDatabaseKey.relativePath)
        let keys = try await server.admin(["signing-keys", "--tenant", "1"])
        try """
        door = North
        tenant = 1
        event = 1
        \(keys)
        database = kiosk.db
        \(TestDatabaseKey.configurationLine)
        server = \(server.url)
        server_ca = ca.pem
        display = text

        """.write(toFile: door + "/kiosk.conf", atomically: true, encoding: .utf8)
        let enrolment = try await server.admin(["enrolment-code", "--event", "1"])
        let enrolled = try await LiveProcesses.run(
            "kioskctl",
            ["enroll", "--config", "kiosk.conf", "--server", server.url, "--code", enrolment, "--ca-file", "ca.pem"],
            in: door)
        try #require(enrolled.status == 0, "\(enrolled.err)")
        var rng = SplitMix64(seed: 2026)
        let frame = DoorScenes.render(.plain, code: qr, moduleSize: 8, severity: 0.3, rng: &rng)
        try FileManager.default.createDirectory(atPath: door + "/frames", withIntermediateDirectories: true)
        try ImageFile.writePNG(frame, to: door + "/frames/0001.png")
        let replay = try await LiveProcesses.run("kiosk", ["--config", "kiosk.conf", "--replay", "frames"], in: door)
        #expect(replay.status == 0, "\(replay.err)")
        #expect(replay.out.contains("\"admitted\""), "out: \(replay.out)\nerr: \(replay.err)\nframes: \(door)")
    }
}

extension PassIssuanceLiveTests {
    static func guestCSV(_ count: Int, in folder: String) throws -> String {
        let path = folder + "/guests.csv"
        let lines = ["name,email"] + (0..<count).map { "Guest \($0),guest\($0)@example.org" }
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Every address got its pass; an address that got it twice got the same Message-ID twice (a kill between
    /// the relay's acceptance and the step's commit). Returns how many second copies there were.
    static func checkDelivered(_ mails: [ReceivedMail], addresses: Set<String>) -> Int {
        var byAddress: [String: [String]] = [:]
        for mail in mails {
            for to in mail.envelope.rcptTos { byAddress[to, default: []].append(header(mail, "Message-ID") ?? "") }
        }
        #expect(Set(byAddress.keys) == addresses)
        var extra = 0
        for (address, ids) in byAddress where ids.count > 1 {
            #expect(Set(ids).count == 1, "\(address) got different Message-IDs: \(ids)")
            extra += ids.count - 1
        }
        return extra
    }

    @Test func aCrashAfterEachStepResumesAtTheNextAndSendsOneEmail() async throws {
        let relay = try await TestSMTPRelay.start()
        let (server, secret) = try await Self.server(relay: relay)
        let passes = server.folder + "/passes"
        for (index, step) in ["sign", "render", "store", "email"].enumerated() {
            server.environment = ["CHECKIN_FAULT_CRASH_AFTER_STEP": step]
            try await server.start()
            let address = "after-\(step)@example.org"
            _ = try await Self.webhook(
                server, secret: secret, id: "msg_crash_\(step)",
                payload: GuestWebhookPayload(
                    type: "guest.created",
                    data: GuestWebhookData(
                        eventId: 1, reference: "crash-\(step)", name: "Crash \(step)", email: address)),
                serverMayDie: true)
            // The server kills itself (SIGKILL) right after committing that step.
            #expect(try await server.waitForExit(seconds: 30), "the server did not crash after \(step)")
            let before = try Self.files(passes)
            #expect(try relay.received().filter { $0.envelope.rcptTos == [address] }.count == (step == "email" ? 1 : 0))

            server.environment = [:]
            try await server.start()
            let mails = try await Self.mail(relay, count: index + 1)
            await server.stop()
            #expect(mails.filter { $0.envelope.rcptTos == [address] }.count == 1, "after a crash after \(step)")
            // A completed store is not done again: the image file is the one written before the crash.
            let after = try Self.files(passes)
            if step == "store" || step == "email" {
                #expect(after == before, "the stored image was written again after a crash after \(step)")
            }
        }
        #expect(
            Self.checkDelivered(
                try relay.received(),
                addresses: Set(["sign", "render", "store", "email"].map { "after-\($0)@example.org" })) == 0)
    }

    /// File names and modification times in `folder`.
    static func files(_ folder: String) throws -> [String: Date] {
        var result: [String: Date] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + name)
            result[name] = attributes[.modificationDate] as? Date
        }
        return result
    }

    /// Kills at random moments while passes are being sent, then a last run: every guest has its e-mail.
    static func randomKills(_ servers: [LiveServer], relay: TestSMTPRelay, guests: Int, kills: Int, seed: UInt64)
        async throws
    {
        // On threads of their own: on the 2-thread pool, starved by tests waiting for child processes, a 20 ms
        // poll once woke after the whole sending was over (every kill saw all 40 messages in a CI run).
        try await withTaskExecutorPreference(ThreadExecutor.testServers) {
            try await randomKillSteps(servers, relay: relay, guests: guests, kills: kills, seed: seed)
        }
    }

    static func randomKillSteps(_ servers: [LiveServer], relay: TestSMTPRelay, guests: Int, kills: Int, seed: UInt64)
        async throws
    {
        var rng = SplitMix64(seed: seed)
        for server in servers { try await server.start() }
        var sentAtKills: [Int] = []
        for kill in 0..<kills {
            // Each kill waits for the sending to reach its share of the guests (spread over the run, whatever the
            // machine's speed: on a loaded one, fixed delays all fell before the first message), then a random
            // moment more, so that it lands inside a step: between the relay's acceptance and the commit, too.
            let target = guests * (kill + 1) / (kills + 2)
            let deadline = ContinuousClock.now + .seconds(120)
            while try relay.received().count < target, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...120, using: &rng)))
            let victim = servers[Int.random(in: 0..<servers.count, using: &rng)]
            sentAtKills.append(try relay.received().count)
            await victim.kill()
            try await victim.start()
        }
        // The kills fell while messages were being sent, not all before the first or after the last.
        #expect(sentAtKills.contains { $0 > 0 && $0 < guests }, "messages received at each kill: \(sentAtKills)")
        // Until every guest has theirs: counting messages stopped early when second copies made up the count
        // (40 messages, 5 of them copies, 5 guests still waiting, and the servers stopped before sending them).
        let addresses = Set((0..<guests).map { "guest\($0)@example.org" })
        let mails = try await Self.mail(relay, reaching: addresses, seconds: 120)
        // Wait for the last copies in flight, then count.
        try await Task.sleep(for: .milliseconds(500))
        for server in servers { await server.stop() }
        let extra = Self.checkDelivered(try relay.received(), addresses: addresses)
        // Each kill can at most repeat the e-mails its workers (2) had sent and not yet committed.
        #expect(extra <= kills * 2, "\(extra) second copies for \(kills) kills")
        print(
            "random kills: \(kills) kills (messages received at each: \(sentAtKills)), \(mails.count) messages for \(guests) guests, \(extra) second copies (same Message-ID)"
        )
    }

    @Test func randomKillsWhileSendingLoseNoEmailOnSQLite() async throws {
        // A relay that takes 100 ms per message (a real one takes longer): the sending lasts seconds, and kills
        // land inside it, some between the relay's acceptance and the step's commit.
        let relay = try await TestSMTPRelay.start(.init(dataDelayMilliseconds: 100))
        let (server, _) = try await Self.server(relay: relay)
        _ = try await server.admin(["import-guests", "--event", "1", "--csv", try Self.guestCSV(40, in: server.folder)])
        try await Self.randomKills([server], relay: relay, guests: 40, kills: 5, seed: 11)
    }

    @Test func twoServerProcessesOnOnePostgreSQLWithRandomKillsLoseNoEmail() async throws {
        let database = try await LivePostgres.makeDatabase()
        let relay = try await TestSMTPRelay.start(.init(dataDelayMilliseconds: 60))
        let (first, _) = try await Self.server(relay: relay, postgres: database)
        let (second, _) = try await Self.server(relay: relay, postgres: database, setUp: false)
        // One pass folder for both, as two processes on one box would have.
        let shared = first.folder + "/passes"
        for server in [first, second] {
            server.serveArguments += ["--pass-dir", shared]
        }
        // Two processes send twice as fast: twice the guests, so that the kills land inside the sending.
        _ = try await first.admin(["import-guests", "--event", "1", "--csv", try Self.guestCSV(100, in: first.folder)])
        try await Self.randomKills([first, second], relay: relay, guests: 100, kills: 6, seed: 23)
    }
}
