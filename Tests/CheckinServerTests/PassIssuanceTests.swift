import CheckinCore
import CheckinMail
import CheckinServer
import Cryptography
import Foundation
import Hummingbird
import HummingbirdTesting
import ImageFiles
import KioskCore
import KioskDecoding
import Logging
import PassFormat
import PostgresTestSupport
import TestSupport
import Testing
import WireAPI

@testable import CheckinAdmin

/// The pass workflow on each store, its steps run by a worker on a manual clock: sign, render, store, then
/// the email (here with no relay configured, so it waits and says why; the SMTP tests send for real).
@Suite(.dropsTestDatabases)
struct PassIssuanceTests {
    static func steps(_ h: Harness, folder: String, mailer: (any Mailer)? = nil) -> PassIssuanceSteps {
        PassIssuanceSteps(
            repository: h.repository, images: PassImageStore(directory: folder + "/passes"),
            publicURL: "https://checkin.example.org", mailer: mailer, timeZone: TimeZone(identifier: "UTC")!)
    }

    static func worker(_ h: Harness, _ steps: PassIssuanceSteps) -> PassIssuanceWorker {
        var logger = Logger(label: "pass-issuance-test")
        logger.logLevel = .critical  // the steps' expected failures (no relay) are asserted, not printed
        return PassIssuanceWorker(repository: h.repository, steps: steps, clock: h.clock, logger: logger)
    }

    /// The organizer's guest page shows the guest's pass, downloads its image and sends it again (the unfinished
    /// one stopped, a new one started); a guest with no address is told so, not sent anything.
    @Test(arguments: RepositoryFactory.all)
    func theGuestPageShowsDownloadsAndResendsThePass(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event(guests: 0)
        try await h.organizer(of: tenant)
        let steps = Self.steps(h, folder: RepositoryFactory.temporaryFolder())
        let added = try await h.repository.addGuests(
            [NewGuest(name: "Zoë Quinn", email: "zoe@example.org"), NewGuest(name: "No Address")], event: event.id,
            at: h.clock.now())
        _ = try await Self.worker(h, steps).runDue()
        let first = try #require(try await h.repository.issuances(guest: added[0].id, event: event.id).first)
        let base = "/events/\(event.id.rawValue)/guests"
        try await h.app(issuance: steps).test(.router) { client in
            let (cookie, csrf) = try await WebPageTests.signIn(client, email: "ann%40example.org")
            func get(_ uri: String) async throws -> (HTTPResponse.Status, [UInt8]) {
                try await client.execute(uri: uri, method: .get, headers: [.cookie: cookie]) {
                    ($0.status, Array($0.body.readableBytesView))
                }
            }
            let page = String(decoding: try await get("\(base)/\(added[0].id.text)/edit").1, as: UTF8.self)
            #expect(page.contains("href=\"/p/\(try #require(first.pass))\""), "\(page)")
            let image = try await get("\(base)/\(added[0].id.text)/pass.png")
            #expect(image.0 == .ok && image.1 == first.image)
            #expect(try await get("\(base)/\(added[1].id.text)/pass.png").0 == .notFound)

            func resend(_ guest: Guest) async throws -> String? {
                try await client.execute(
                    uri: "\(base)/\(guest.id.text)/resend-pass", method: .post,
                    headers: WebPageTests.form(cookie: cookie), body: ByteBuffer(string: "csrf=\(csrf)")
                ) { $0.headers[.location] }
            }
            #expect(try await resend(added[0])?.hasSuffix("notice=pass-resent") == true)
            #expect(try await resend(added[1])?.hasSuffix("notice=no-address") == true)
        }
        let issuances = try await h.repository.issuances(guest: added[0].id, event: event.id)
        #expect(issuances.count == 2)
        #expect(issuances.first { $0.id == first.id }?.step == .cancelled, "the unfinished one stopped")
        #expect(issuances.contains { $0.id != first.id && $0.step == .sign })
        #expect(try await h.repository.issuances(guest: added[1].id, event: event.id).isEmpty)
        let actions = try await h.repository.auditEntries(tenant: tenant.id, limit: 50).map(\.action)
        #expect(actions.filter { $0 == "pass_resent" }.count == 1)
    }

    @Test(arguments: RepositoryFactory.all)
    func aGuestWithAnAddressGetsASignedPassRenderedAndStoredByItsTokensName(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event(guests: 0)
        let folder = RepositoryFactory.temporaryFolder()
        let steps = Self.steps(h, folder: folder)
        let worker = Self.worker(h, steps)
        let added = try await h.repository.addGuests(
            [
                NewGuest(name: "Zoë Quinn", email: "zoe@example.org", partySize: 2),
                NewGuest(name: "Phone Only", phone: "+1 555 0100"), NewGuest(name: "No Address"),
            ], event: event.id, at: h.clock.now())
        #expect(try await h.repository.issuances(guest: added[2].id, event: event.id).isEmpty)

        // sign, render, store for both; the phone-only guest's ends there; the email waits for a relay.
        #expect(try await worker.runDue() == 7)
        let zoe = try #require(try await h.repository.issuances(guest: added[0].id, event: event.id).first)
        #expect(zoe.step == .email && zoe.attempts == 1)
        #expect(zoe.lastError?.contains("no SMTP relay is configured") == true)
        #expect(zoe.nextAttemptAt == h.clock.now().addingTimeInterval(30))
        let phone = try #require(try await h.repository.issuances(guest: added[1].id, event: event.id).first)
        #expect(phone.step == .done && phone.sentAt == nil)

        // The pass verifies with the tenant's exported key, and names the guest, event and tenant.
        let pass = try PassToken(payload: Array(try #require(zoe.pass).utf8))
        let keys = try await h.admin.signingKeys(tenant: tenant.id, rotate: false)
        #expect(keys.count == 1 && pass.keyID == keys[0].keyID && pass.keyID >= SigningKey.firstKeyID)
        let line = CheckinAdmin.trustedKeyLines(keys)[0]
        let publicKey = try TrustedKeys.loadKey(String(line.split(separator: " ")[3]), relativeTo: folder)
        #expect(publicKey.isValidSignature(pass.signature, of: pass.signedMessage))
        #expect(pass.guest == added[0].id && pass.event == event.id && pass.tenant == tenant.id)

        // The stored image is named by the pass (never an id), and its QR reads back as the pass's URL.
        let name = try #require(zoe.storedName)
        #expect(name == PassImageStore.name(pass: zoe.pass!) && !name.contains(added[0].id.text))
        let png = try #require(FileManager.default.contents(atPath: folder + "/passes/" + name))
        #expect([UInt8](png) == zoe.image)
        let codes = KioskDecoder().decode(try ImageFile.decode(data: [UInt8](png), name: name))
        #expect(codes.map { String(decoding: $0.payload, as: UTF8.self) } == [steps.passURL(zoe.pass!)])
        #expect(steps.passURL(zoe.pass!).hasPrefix("HTTPS://CHECKIN.EXAMPLE.ORG/P/"))

        // Nothing more is due until the backoff has passed; then the email step runs again (and waits again).
        #expect(try await worker.runDue() == 0)
        h.clock.advance(by: 30)
        #expect(try await worker.runDue() == 1)
        let again = try #require(try await h.repository.issuances(guest: added[0].id, event: event.id).first)
        #expect(again.attempts == 2 && again.nextAttemptAt == h.clock.now().addingTimeInterval(60))
    }

    @Test(arguments: RepositoryFactory.all)
    func aCancelledGuestsUnfinishedIssuanceStopsAndARetriedStoreFindsItsFile(_ factory: RepositoryFactory)
        async throws
    {
        let h = try await Harness(factory)
        let (_, event, _) = try await h.event(guests: 0)
        let folder = RepositoryFactory.temporaryFolder()
        let steps = Self.steps(h, folder: folder)
        let worker = Self.worker(h, steps)
        let added = try await h.repository.addGuests(
            [NewGuest(name: "Ann", email: "ann@example.org"), NewGuest(name: "Bob", email: "bob@example.org")],
            event: event.id, at: h.clock.now())
        // Steps run until Bob's pass is signed; then Bob is cancelled.
        while try await h.repository.issuances(guest: added[1].id, event: event.id).first?.pass == nil {
            #expect(try await worker.runOne() != nil)
        }
        _ = try await h.repository.cancelGuest(added[1].id, event: event.id, at: h.clock.now())
        try await worker.runDue()
        let bob = try await h.repository.issuances(guest: added[1].id, event: event.id)
        #expect(bob.map(\.step) == [.cancelled] && bob[0].storedName == nil && bob[0].image == nil)
        #expect(try await h.repository.issuances(guest: added[0].id, event: event.id).first?.step == .email)

        // The store step again (a crash after the file was written, before its commit): it finds the file.
        let ann = try #require(try await h.repository.issuances(guest: added[0].id, event: event.id).first)
        let stored = try PassImageStore(directory: folder + "/passes").store(pass: ann.pass!, png: ann.image!)
        #expect(stored == ann.storedName)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder + "/passes")
        #expect(files == [ann.storedName!])
    }

    @Test(arguments: RepositoryFactory.all)
    func thePassPageShowsAVerifiedPassAndNothingForAnythingElse(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, _) = try await h.event(guests: 0)
        let (_, otherEvent, _) = try await h.event(tenantName: "Other", guests: 0)
        let folder = RepositoryFactory.temporaryFolder()
        let steps = Self.steps(h, folder: folder)
        let added = try await h.repository.addGuests(
            [NewGuest(name: "Zoë Quinn", email: "zoe@example.org", partySize: 3)], event: event.id, at: h.clock.now())
        let other = try await h.repository.addGuests(
            [NewGuest(name: "Other Guest", email: "o@example.org")], event: otherEvent.id, at: h.clock.now())
        try await Self.worker(h, steps).runDue()
        let pass = try #require(try await h.repository.issuances(guest: added[0].id, event: event.id).first?.pass)
        let otherPass = try #require(
            try await h.repository.issuances(guest: other[0].id, event: otherEvent.id).first?.pass)
        let token = try PassToken(payload: Array(pass.utf8))
        // The same body, signed by the other tenant's key: a forgery for this tenant.
        var forged = token
        forged.signature = try PassToken(payload: Array(otherPass.utf8)).signature
        var tampered = token
        tampered.guest = other[0].id
        // The last two characters changed (to "BB" when they are "AA": the pass itself 1 time in 1024).
        let changedEnd = String(pass.dropLast(2)) + (pass.hasSuffix("AA") ? "BB" : "AA")
        let bad = [forged.text, tampered.text, "garbage", changedEnd]

        try await h.app(issuance: steps).test(.router) { client in
            func get(_ path: String) async throws -> (HTTPResponse.Status, String) {
                try await client.execute(uri: path, method: .get) { ($0.status, String(buffer: $0.body)) }
            }
            let (status, html) = try await get("/P/" + pass)
            #expect(status == .ok)
            #expect(html.contains("Zoë") && !html.contains("Quinn") && html.contains("3 people"))
            #expect(html.contains(added[0].id.displayCode) && html.contains("Gala") && html.contains("<svg"))
            #expect(try await get("/p/" + pass).0 == .ok)
            let missing = try await get("/p/" + String(repeating: "A", count: 136))
            #expect(missing.0 == .notFound)
            for text in bad {
                let path = "/p/" + text
                let answer = try await get(path)
                #expect(answer.0 == .notFound && answer.1 == missing.1, "\(path)")
            }
            // Cancelled: the page says so and shows no code to scan.
            _ = try await h.repository.cancelGuest(added[0].id, event: event.id, at: h.clock.now())
            let cancelled = try await get("/p/" + pass)
            #expect(cancelled.0 == .ok && cancelled.1.contains("cancelled") && !cancelled.1.contains("<svg"))
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func aFailedIssuanceWaitsForTheOrganizerAndRetriesByHand(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event(guests: 0)
        let folder = RepositoryFactory.temporaryFolder()
        let worker = Self.worker(h, Self.steps(h, folder: folder))
        let added = try await h.repository.addGuests(
            [NewGuest(name: "Ann", email: "ann@example.org")], event: event.id, at: h.clock.now())
        // With no relay the email step retries with backoff, then fails after the last attempt.
        for _ in 0..<IssuanceBackoff.maximumAttempts + 3 {
            try await worker.runDue()
            h.clock.advance(by: 3601)
        }
        var issuance = try #require(try await h.repository.issuances(guest: added[0].id, event: event.id).first)
        #expect(issuance.step == .failed && issuance.failedStep == .email)
        #expect(issuance.attempts == IssuanceBackoff.maximumAttempts)
        let problems = try await h.repository.issuances(event: event.id, problemsOnly: true, limit: 10)
        #expect(problems.map(\.id) == [issuance.id])
        #expect(try await worker.runDue() == 0)

        // The organizer sees it on the guest page, with its error, and retries it there.
        try await h.organizer(of: tenant)
        let (_, otherEvent, _) = try await h.event(tenantName: "Other", guests: 0)
        let failedID = issuance.id
        try await h.app().test(.router) { client in
            let (cookie, csrf) = try await WebPageTests.signIn(client, email: "ann%40example.org")
            let page = try await client.execute(
                uri: "/events/\(event.id.rawValue)/guests", method: .get, headers: [.cookie: cookie]
            ) { String(buffer: $0.body) }
            #expect(page.contains("Passes not delivered") && page.contains("id=\"pass-\(failedID)\""))
            #expect(page.contains("no SMTP relay is configured") && page.contains("failed after 10 attempts"))
            func retry(_ path: String, _ body: String) async throws -> HTTPResponse.Status {
                try await client.execute(
                    uri: path, method: .post, headers: WebPageTests.form(cookie: cookie), body: ByteBuffer(string: body)
                ) { $0.status }
            }
            let path = "/events/\(event.id.rawValue)/passes/\(failedID)/retry"
            #expect(try await retry(path, "csrf=nope") == .forbidden)
            #expect(
                try await retry("/events/\(otherEvent.id.rawValue)/passes/\(failedID)/retry", "csrf=\(csrf)")
                    == .notFound)
            #expect(try await retry(path, "csrf=\(csrf)") == .seeOther)
        }
        issuance = try #require(try await h.repository.issuances(guest: added[0].id, event: event.id).first)
        #expect(issuance.step == .email && issuance.attempts == 0 && issuance.pass != nil)
        #expect(
            try await h.repository.auditEntries(tenant: tenant.id, limit: 20).contains { $0.action == "pass_retried" })
        #expect(try await worker.runDue() == 1)
        await #expect(throws: RepositoryError.self) {
            try await h.repository.retryIssuance("nope", event: event.id, at: h.clock.now())
        }
    }

    /// The e-mail step against a real relay (aiosmtpd on loopback): sent once with its Message-ID; a 4xx
    /// answer retried, and sent when the relay takes it; a 5xx answer fails the pass at once, for the
    /// organizer to see.
    @Test(arguments: [RepositoryFactory.sqliteFile, RepositoryFactory.postgres])
    func theRelaysAnswerDecidesBetweenSentRetriedAndFailed(_ factory: RepositoryFactory) async throws {
        let relay = try await TestSMTPRelay.start(.init(temporaryFailures: 1))
        let h = try await Harness(factory)
        let (_, event, _) = try await h.event(guests: 0)
        let mailer = RelayMailer(
            relay: try SMTPRelay(url: "smtp+plain://127.0.0.1:\(relay.port)"),
            from: try MailAddress("passes@checkin.test"))
        let worker = Self.worker(h, Self.steps(h, folder: RepositoryFactory.temporaryFolder(), mailer: mailer))
        let added = try await h.repository.addGuests(
            [NewGuest(name: "Ann", email: "ann@example.org"), NewGuest(name: "Nobody", email: "permfail@example.org")],
            event: event.id, at: h.clock.now())
        try await worker.runDue()
        let ann = try #require(try await h.repository.issuances(guest: added[0].id, event: event.id).first)
        let nobody = try #require(try await h.repository.issuances(guest: added[1].id, event: event.id).first)
        // The relay greylists the first message (451); the 550 for the unknown address fails that pass at once.
        #expect(nobody.step == .failed && nobody.failedStep == .email && nobody.lastError?.contains("550") == true)
        let greylisted = [ann, nobody].filter { $0.step == .email }
        #expect(
            greylisted.count <= 1 && greylisted.allSatisfy { $0.attempts == 1 && $0.lastError?.contains("451") == true }
        )
        h.clock.advance(by: 31)
        try await worker.runDue()
        let sent = try #require(try await h.repository.issuances(guest: added[0].id, event: event.id).first)
        #expect(sent.step == .done && sent.sentAt != nil)
        let mails = try relay.received()
        #expect(mails.map(\.envelope.rcptTos) == [["ann@example.org"]])
        #expect(
            mails.first?.headers.first { $0.key.lowercased() == "message-id" }?.value
                == sent.messageID(domain: "checkin.example.org"))
    }
}
