import CheckinCore
import CheckinMail
import CheckinServer
import Foundation
import Hummingbird
import HummingbirdTesting
import PassFormat
import PostgresTestSupport
import TestSupport
import Testing
import WireAPI

/// A forgotten password, through a real SMTP relay: the link reaches the organizer's inbox and nobody else's, the
/// page answers a stranger exactly as it answers the organizer, the link works once and for 30 minutes, and
/// using it ends every session and sets the password that signs in.
@Suite(.dropsTestDatabases) struct PasswordResetTests {
    @Test(arguments: [RepositoryFactory.sqliteFile, RepositoryFactory.postgres])
    func aResetLinkArrivesWorksOnceAndEndsEverySession(_ factory: RepositoryFactory) async throws {
        let relay = try await TestSMTPRelay.start()
        defer { relay.stop() }
        let mailer = RelayMailer(
            relay: try SMTPRelay(url: "smtp+plain://127.0.0.1:\(relay.port)"),
            from: try MailAddress("checkin@checkin.example.org"))
        let (h, tenant, steps) = try await Self.organizer(factory, mailer: mailer)
        try await h.app(issuance: steps).test(.router) { client in
            let (session, _) = try await WebPageTests.signIn(client, email: "ann%40example.org")
            let stranger = try await Self.askForLink(client, email: "zed%40example.org")
            let ann = try await Self.askForLink(client, email: "ann%40example.org")
            #expect(stranger.0 == .ok && ann.0 == .ok)
            #expect(
                stranger.1.replacingOccurrences(of: "zed@example.org", with: "X")
                    .replacingOccurrences(of: #"value="[A-Z2-7]+""#, with: "", options: .regularExpression)
                    == ann.1.replacingOccurrences(of: "ann@example.org", with: "X")
                    .replacingOccurrences(of: #"value="[A-Z2-7]+""#, with: "", options: .regularExpression),
                "a stranger learns nothing from the answer")
            #expect(ann.1.contains("If an account uses ann@example.org"))

            let mail = try await Self.firstMail(relay)
            #expect(mail.envelope.rcptTos == ["ann@example.org"], "only the account's own address gets a link")
            let text = try #require(mail.text)
            let link = try #require(
                text.firstMatch(of: /https:\/\/checkin\.example\.org(\/password-reset\/[A-Z2-7]+)/)?.1)
            let path = String(link)

            func page(_ uri: String) async throws -> (HTTPResponse.Status, String, String) {
                try await client.execute(uri: uri, method: .get) {
                    if uri.hasPrefix("/password-reset/") {
                        #expect(
                            $0.headers[HTTPFields.Element.Name("Referrer-Policy")!] == "no-referrer",
                            "the token stays here")
                    }
                    return ($0.status, String(buffer: $0.body), WebPageTests.cookie($0, "__Host-checkin_signin"))
                }
            }
            func set(_ password: String, again: String? = nil) async throws -> TestResponse {
                let (_, form, cookie) = try await page(path)
                let body = "csrf=\(WebPageTests.csrf(form))&password=\(password)&again=\(again ?? password)"
                return try await client.execute(
                    uri: path, method: .post, headers: WebPageTests.form(cookie: cookie), body: ByteBuffer(string: body)
                )
            }
            let (status, form, _) = try await page(path)
            #expect(status == .ok && form.contains("Set a new password"), "\(form)")
            #expect(try await page("/password-reset/AAAAAAAAAAAAAAAA").0 == .notFound)
            #expect(try await set("new-password-1", again: "new-password-2").status == .unprocessableContent)
            let short = try await set("short")
            #expect(short.status == .unprocessableContent && String(buffer: short.body).contains("shorter than 10"))

            let done = try await set("new-password-1")
            #expect(done.status == .seeOther && done.headers[.location] == "/sign-in?notice=password-reset")
            let ended = try await client.execute(uri: "/events", method: .get, headers: [.cookie: session]) { $0 }
            #expect(ended.status == .seeOther && ended.headers[.location] == "/sign-in", "the old session ended")
            let again = try await page(path)
            #expect(again.0 == .notFound && again.1.contains("This link no longer works"), "the link worked once")
            func signIn(_ password: String) async throws -> HTTPResponse.Status {
                let (_, form, cookie) = try await page("/sign-in")
                return try await client.execute(
                    uri: "/sign-in", method: .post, headers: WebPageTests.form(cookie: cookie),
                    body: ByteBuffer(
                        string: "email=ann%40example.org&password=\(password)&csrf=\(WebPageTests.csrf(form))")
                ) { $0.status }
            }
            #expect(try await signIn("correct+horse+battery") == .unauthorized, "the old password is gone")
            #expect(try await signIn("new-password-1") == .seeOther, "the new one signs in")
            let audit = try await h.repository.auditEntries(tenant: tenant, limit: 100).map(\.action)
            #expect(audit.contains("password_reset_sent") && audit.contains("organizer_password_reset"))
        }
    }

    /// A link older than 30 minutes is refused; an address gets at most 3 links an hour, however many are asked
    /// for; a server with no mail relay says so and names the operator's command.
    @Test func linksExpireAreLimitedAndNeedARelay() async throws {
        let sent = MailBox()
        let (h, tenant, steps) = try await Self.organizer(.sqliteInMemory, mailer: sent)
        for issuance in [nil, steps] {
            try await h.app(issuance: issuance).test(.router) { client in
                func ask() async throws -> HTTPResponse.Status {
                    let (status, page) = try await Self.askForLink(client, email: "ann%40example.org")
                    if issuance == nil { #expect(page.contains("checkin-server set-organizer-password")) }
                    return status
                }
                guard issuance != nil else {
                    #expect(try await ask() == .serviceUnavailable)
                    return
                }
                for _ in 0..<5 { #expect(try await ask() == .ok) }
                let audit = try await h.repository.auditEntries(tenant: tenant, limit: 100)
                #expect(audit.filter { $0.action == "password_reset_sent" }.count == 3, "3 links an hour")
                let mails = try await sent.waitFor(3)
                let token = try #require(mails[0].text.firstMatch(of: /password-reset\/([A-Z2-7]+)/)?.1)
                h.clock.advance(by: 31 * 60)
                let late = try await client.execute(uri: "/password-reset/\(token)", method: .get) { $0.status }
                #expect(late == .notFound, "30 minutes")
            }
        }
    }

    /// A link asked for just before the server stops still goes out: the stop waits for the outbox, which sends
    /// what was queued, however slow the relay (a detached send was dropped at the stop).
    @Test func aLinkAskedForJustBeforeAStopIsStillSent() async throws {
        let relay = SlowRelay()
        let (h, _, steps) = try await Self.organizer(.sqliteInMemory, mailer: relay)
        try await h.app(issuance: steps).test(.router) { client in
            for _ in 0..<2 {
                let (status, _) = try await Self.askForLink(client, email: "ann%40example.org")
                #expect(status == .ok)
            }
        }
        // The server has stopped (the test's service group is done): both links were sent before it ended.
        #expect(await relay.sent.count == 2)
    }

    /// A tenant's event and its organizer ann@example.org, with pass issuance (and so reset links) sending through
    /// `mailer`.
    static func organizer(_ factory: RepositoryFactory, mailer: any Mailer) async throws -> (
        Harness, TenantID, PassIssuanceSteps
    ) {
        let h = try await Harness(factory)
        let (tenant, _, _) = try await h.event(guests: 0)
        try await h.organizer(of: tenant)
        let steps = PassIssuanceSteps(
            repository: h.repository, images: PassImageStore(directory: RepositoryFactory.temporaryFolder()),
            publicURL: "https://checkin.example.org", mailer: mailer)
        return (h, tenant.id, steps)
    }

    /// "Forgot your password?" as a browser sends it for `email` (form-encoded): the page's answer.
    static func askForLink(_ client: some TestClientProtocol, email: String) async throws -> (
        HTTPResponse.Status, String
    ) {
        let (cookie, csrf) = try await client.execute(uri: "/password-reset", method: .get) {
            (WebPageTests.cookie($0, "__Host-checkin_signin"), WebPageTests.csrf(String(buffer: $0.body)))
        }
        return try await client.execute(
            uri: "/password-reset", method: .post, headers: WebPageTests.form(cookie: cookie),
            body: ByteBuffer(string: "csrf=\(csrf)&email=\(email)")
        ) { ($0.status, String(buffer: $0.body)) }
    }

    static func firstMail(_ relay: TestSMTPRelay) async throws -> ReceivedMail {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(30))
        while clock.now < deadline {
            if let mail = try relay.received().first { return mail }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw NoMail()
    }
}

struct NoMail: Error, CustomStringConvertible {
    var description: String { "no e-mail reached the relay in 30 s" }
}

/// A mailer that keeps what it is given (for the limits, where the relay's own behaviour is not the point).
actor MailBox: Mailer {
    private var mails: [OutgoingEmail] = []
    private var waiting: [UUID: (count: Int, continuation: CheckedContinuation<[OutgoingEmail], any Error>)] = [:]

    func send(_ email: OutgoingEmail) async throws {
        mails.append(email)
        for (id, waiter) in waiting where waiter.count <= mails.count {
            waiting[id] = nil
            waiter.continuation.resume(returning: mails)
        }
    }

    /// The mails once there are at least `count`; fails naming the shortfall if they are not all there within
    /// `limit` (a mail that never comes fails the test instead of hanging the run).
    func waitFor(_ count: Int, within limit: Duration = .seconds(60)) async throws -> [OutgoingEmail] {
        if mails.count >= count { return mails }
        let id = UUID()
        let timer = Task {
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            self.expire(id)
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { waiting[id] = (count, $0) }
    }

    private func expire(_ id: UUID) {
        guard let waiter = waiting.removeValue(forKey: id) else { return }
        waiter.continuation.resume(throwing: MissingMail(expected: waiter.count, sent: mails.count))
    }
}

struct MissingMail: Error, CustomStringConvertible {
    let expected: Int
    let sent: Int
    var description: String { "\(expected) e-mails expected, \(sent) sent within the time limit" }
}

/// A relay that takes a while to accept each mail (a slow or distant one).
actor SlowRelay: Mailer {
    private(set) var sent: [OutgoingEmail] = []

    func send(_ email: OutgoingEmail) async throws {
        // The relay's own latency, not a wait for something in the test.
        try await Task.sleep(for: .milliseconds(200))
        sent.append(email)
    }
}
