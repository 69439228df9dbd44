import CheckinCore
import CheckinServer
import DedicatedThreads
import Foundation
import Hummingbird
import HummingbirdTesting
import PostgresTestSupport
import TestSupport
import Testing

@testable import CheckinAdmin

/// The sign-in throttle in the database: counted before bcrypt, atomically (parallel guesses do not slip past
/// it), shared by every server on the database, keyed by the client (a trusted proxy's X-Forwarded-For), a
/// bounded queue for the password checks, and clipped, rate-limited audit rows for unauthenticated requests.
///
/// One test at a time: every in-process server checks passwords on NIO's one process-wide thread pool (two
/// threads here), and these tests together make about 60 bcrypt checks; run at once, a sign-in of one test
/// waited behind the others' past its client's 20 s read timeout in a full-suite run.
@Suite(.dropsTestDatabases, .serialized) struct SignInThrottleTests {
    /// The sign-in form's cookie and CSRF token.
    static func signInForm(_ client: some TestClientProtocol) async throws -> (cookie: String, csrf: String) {
        try await client.execute(uri: "/sign-in", method: .get) { response in
            (WebPageTests.cookie(response, "__Host-checkin_signin"), WebPageTests.csrf(String(buffer: response.body)))
        }
    }

    static func attempt(
        _ client: some TestClientProtocol, _ form: (cookie: String, csrf: String), email: String,
        password: String = "guess", forwardedFor: String? = nil
    ) async throws -> HTTPResponse.Status {
        var headers = WebPageTests.form(cookie: form.cookie)
        if let forwardedFor { headers[HTTPFields.Element.Name("X-Forwarded-For")!] = forwardedFor }
        return try await client.execute(
            uri: "/sign-in", method: .post, headers: headers,
            body: ByteBuffer(string: "email=\(email)&password=\(password)&csrf=\(form.csrf)")
        ) { $0.status }
    }

    @Test(arguments: RepositoryFactory.all)
    func parallelGuessesAreCountedBeforeThePasswordIsChecked(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, _, _) = try await h.event()
        try await h.organizer(of: tenant)
        try await h.app().test(.router) { client in
            let form = try await Self.signInForm(client)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<30 {
                    group.addTask { try await Self.attempt(client, form, email: "ann%40example.org") }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            // Five passwords checked (401), every other attempt refused before bcrypt.
            #expect(statuses.filter { $0 == .unauthorized }.count == 5, "\(statuses.map(\.code))")
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 25)
        }
    }

    @Test(arguments: [RepositoryFactory.sqliteFile, RepositoryFactory.postgres])
    func everyServerOnTheDatabaseSharesTheCount(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, _, _) = try await h.event()
        try await h.organizer(of: tenant)
        // Two applications on one database: two server processes.
        try await h.app().test(.router) { first in
            let form = try await Self.signInForm(first)
            for _ in 0..<5 { #expect(try await Self.attempt(first, form, email: "ann%40example.org") == .unauthorized) }
        }
        try await h.app().test(.router) { second in
            let form = try await Self.signInForm(second)
            #expect(
                try await Self.attempt(second, form, email: "ann%40example.org", password: "correct+horse+battery")
                    == .tooManyRequests)
        }
    }

    @Test func aFullPasswordCheckQueueAnswers429() async throws {
        let h = try await Harness(.sqliteInMemory)
        var limits = EdgeLimits()
        limits.passwordChecksAtOnce = 1
        limits.passwordChecksWaiting = 1
        try await h.app(limits: limits).test(.router) { client in
            let form = try await Self.signInForm(client)
            // Different accounts: the throttle lets each through, the queue holds two.
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<12 {
                    group.addTask { try await Self.attempt(client, form, email: "user\(index)%40example.org") }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .tooManyRequests }.count >= 6, "\(statuses.map(\.code))")
            #expect(statuses.filter { $0 == .unauthorized }.count >= 2)
        }
        let audit = try await h.repository.auditEntries(tenant: nil, limit: 50).map(\.action)
        #expect(audit.contains("sign_in_busy"))
    }

    /// A stranger's wrong passwords from another address do not lock the organizer out where they are; the
    /// wrong attempts say how many are left before the pause; the operator's `unlock-organizer` lifts a pause
    /// at once. (Seven bcrypt checks in all: the page's answers, on one store; both stores count and forget by
    /// key in `hitsAreCountedAndForgottenByKeyPrefix`.)
    @Test func aStrangerCannotLockAnOrganizerOutAndTheOperatorCanUnlock() async throws {
        let h = try await Harness(.sqliteInMemory)
        let (tenant, _, _) = try await h.event()
        try await h.organizer(of: tenant)
        var limits = EdgeLimits()
        limits.trustedProxies = ["127.0.0.1"]
        try await withTaskExecutorPreference(ThreadExecutor.testServers) {
            try await h.app(limits: limits).test(.live) { client in
                let form = try await Self.signInForm(client)
                func signIn(_ password: String, from address: String) async throws -> (HTTPResponse.Status, String) {
                    var headers = WebPageTests.form(cookie: form.cookie)
                    headers[HTTPFields.Element.Name("X-Forwarded-For")!] = address
                    return try await client.execute(
                        uri: "/sign-in", method: .post, headers: headers,
                        body: ByteBuffer(string: "email=ann%40example.org&password=\(password)&csrf=\(form.csrf)")
                    ) { ($0.status, String(buffer: $0.body)) }
                }
                let right = "correct+horse+battery"
                var pages: [(HTTPResponse.Status, String)] = []
                for _ in 0..<5 { pages.append(try await signIn("guess", from: "203.0.113.9")) }
                #expect(pages.allSatisfy { $0.0 == .unauthorized })
                #expect(!pages[1].1.contains("left"))
                #expect(pages[2].1.contains("2 attempts left, then sign-in pauses for 15 minutes"), "\(pages[2].1)")
                #expect(pages[3].1.contains("1 attempt left"))
                #expect(pages[4].1.contains("pauses here for 15 minutes now"))
                let paused = try await signIn(right, from: "203.0.113.9")
                #expect(paused.0 == .tooManyRequests && paused.1.contains("unlock-organizer"))
                // The organizer where they are: not locked out by the stranger.
                #expect(try await signIn(right, from: "198.51.100.7").0 == .seeOther)
                // The operator lifts the pause.
                #expect(try await h.admin.unlockOrganizer(email: "Ann@Example.org").tenant == tenant.id)
                #expect(try await signIn(right, from: "203.0.113.9").0 == .seeOther, "unlocked")
            }
        }
        await #expect(throws: CheckinAdmin.Failure.self) { try await h.admin.unlockOrganizer(email: "nobody@x.org") }
        let actions = try await h.repository.auditEntries(tenant: tenant.id, limit: 100).map(\.action)
        #expect(actions.contains("organizer_unlocked"))
    }

    /// Both stores count the live hits of a key and forget every key that starts with a prefix, and only those.
    @Test(arguments: RepositoryFactory.all)
    func hitsAreCountedAndForgottenByKeyPrefix(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let now = h.clock.now()
        for key in [
            "sign-in:pair:ann@x.org|1", "sign-in:pair:ann@x.org|1", "sign-in:pair:ann@x.org|2",
            "sign-in:pair:ann@x.org.evil|1", "sign-in:pair:bob@x.org|1",
        ] {
            #expect(try await h.repository.takeHits([RateLimit(key: key, limit: 10, window: 60)], at: now))
        }
        #expect(try await h.repository.hitCount(key: "sign-in:pair:ann@x.org|1", at: now) == 2)
        #expect(try await h.repository.hitCount(key: "sign-in:pair:ann@x.org|1", at: now.addingTimeInterval(61)) == 0)
        try await h.repository.forgetHits(keysStartingWith: "sign-in:pair:ann@x.org|")
        for (key, left) in [
            ("sign-in:pair:ann@x.org|1", 0), ("sign-in:pair:ann@x.org|2", 0), ("sign-in:pair:ann@x.org.evil|1", 1),
            ("sign-in:pair:bob@x.org|1", 1),
        ] {
            #expect(try await h.repository.hitCount(key: key, at: now) == left, "\(key)")
        }
    }

    @Test func aTrustedProxysForwardedForNamesTheClient() async throws {
        let h = try await Harness(.sqliteInMemory)
        var limits = EdgeLimits()
        limits.signInAttemptsPerClient = 2
        limits.signInAttemptsPerAccount = 100
        limits.trustedProxies = ["127.0.0.1"]
        var untrusted = limits
        untrusted.trustedProxies = []
        try await withTaskExecutorPreference(ThreadExecutor.testServers) {
            // Behind the proxy (the test client on 127.0.0.1): each forwarded client has its own count.
            try await h.app(limits: limits).test(.live) { client in
                let form = try await Self.signInForm(client)
                for index in 0..<2 {
                    #expect(
                        try await Self.attempt(client, form, email: "a\(index)%40x.org", forwardedFor: "203.0.113.9")
                            == .unauthorized)
                }
                #expect(
                    try await Self.attempt(client, form, email: "a3%40x.org", forwardedFor: "203.0.113.9")
                        == .tooManyRequests)
                #expect(
                    try await Self.attempt(client, form, email: "a4%40x.org", forwardedFor: "198.51.100.1, 203.0.113.7")
                        == .unauthorized)
            }
            // Without the proxy configured, the header is the client's word: ignored, the socket's address counts.
            try await h.app(limits: untrusted).test(.live) { client in
                let form = try await Self.signInForm(client)
                for index in 0..<2 {
                    #expect(
                        try await Self.attempt(
                            client, form, email: "b\(index)%40x.org", forwardedFor: "192.0.2.\(index)")
                            == .unauthorized)
                }
                #expect(
                    try await Self.attempt(client, form, email: "b3%40x.org", forwardedFor: "192.0.2.77")
                        == .tooManyRequests)
            }
        }
    }

    @Test(arguments: [RepositoryFactory.sqliteInMemory, RepositoryFactory.postgres])
    func unauthenticatedAuditRowsAreClippedAndLimited(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, _, _) = try await h.event()
        try await h.organizer(of: tenant)
        let long = String(repeating: "a", count: 3_000) + "%40example.org"
        try await h.app().test(.router) { client in
            let form = try await Self.signInForm(client)
            // Forged forms (no CSRF token): 403 each, at most 10 rows a minute.
            for _ in 0..<30 {
                try await client.execute(
                    uri: "/sign-in", method: .post, headers: WebPageTests.form(cookie: form.cookie),
                    body: ByteBuffer(string: "email=\(long)&password=x")
                ) { #expect($0.status == .forbidden) }
            }
            h.clock.advance(by: 61)
            // Throttled attempts with a 3,000-character address.
            for _ in 0..<8 { _ = try await Self.attempt(client, form, email: long) }
        }
        let audit = try await h.repository.auditEntries(tenant: nil, limit: 500)
        #expect(audit.filter { $0.action == "csrf_refused" }.count == 10)
        let signIns = audit.filter { $0.action.hasPrefix("sign_in") }
        #expect(signIns.count == 8 && signIns.contains { $0.action == "sign_in_throttled" })
        #expect(audit.allSatisfy { $0.detail.count <= 200 }, "\(audit.map(\.detail.count).max() ?? 0)")
    }
}
