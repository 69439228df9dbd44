import CheckinCore
import CheckinServer
import Foundation
import Hummingbird
import HummingbirdTesting
import KioskCore
import PostgresTestSupport
import Testing
import WireAPI

/// The organizer's pages in process (`app.test(.router)`), on every repository: sign-in with CSRF, the sync
/// monitor's pills and empty state on an injected clock, and another tenant's event answering like nothing.
@Suite(.dropsTestDatabases) struct WebPageTests {
    static let password = "correct horse battery"

    /// Signs in; returns the session cookie ("name=value") and the session's CSRF token from the events page.
    static func signIn(_ client: some TestClientProtocol, email: String) async throws -> (cookie: String, csrf: String)
    {
        let (signInCookie, csrf) = try await client.execute(uri: "/sign-in", method: .get) { response in
            #expect(response.status == .ok)
            return (Self.cookie(response, "__Host-checkin_signin"), Self.csrf(String(buffer: response.body)))
        }
        let cookie = try await client.execute(
            uri: "/sign-in", method: .post, headers: Self.form(cookie: signInCookie),
            body: ByteBuffer(
                string: "email=\(email)&password=\(Self.password.replacingOccurrences(of: " ", with: "+"))&csrf=\(csrf)"
            )
        ) { response in
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/events")
            let setCookie = response.headers[values: .setCookie].first { $0.hasPrefix("__Host-checkin_session=") } ?? ""
            #expect(
                setCookie.contains("HttpOnly") && setCookie.contains("Secure") && setCookie.contains("SameSite=Lax"))
            return Self.cookie(response, "__Host-checkin_session")
        }
        let pageCSRF = try await client.execute(uri: "/events", method: .get, headers: [.cookie: cookie]) {
            response in
            #expect(response.status == .ok)
            return Self.csrf(String(buffer: response.body))
        }
        return (cookie, pageCSRF)
    }

    static func cookie(_ response: TestResponse, _ name: String) -> String {
        let header = response.headers[values: .setCookie].first { $0.hasPrefix(name + "=") } ?? ""
        return String(header.prefix { $0 != ";" })
    }

    static func csrf(_ html: String) -> String {
        guard let range = html.range(of: "name=\"csrf\" value=\"") else { return "" }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    static func form(cookie: String) -> HTTPFields {
        [.contentType: "application/x-www-form-urlencoded", .cookie: cookie]
    }

    /// A heartbeat from `device` at the harness's current time.
    static func report(
        _ client: some TestClientProtocol, _ device: EnrolledDevice, door: String, pending: Int,
        rosterCursor: String = "c1", clockOffsetMs: Int64 = 0
    ) async throws {
        let beat = Heartbeat(
            door: door, kioskVersion: "1.0.0", pending: pending, oldestPendingAt: nil, rosterCursor: rosterCursor,
            rosterFetchedAt: nil, camera: "streaming", clockOffsetMs: clockOffsetMs, deviceTime: Date())
        try await client.execute(
            uri: "/v1/devices/heartbeat", method: .post, headers: device.headers, body: Harness.json(beat)
        ) { response in #expect(response.status == .ok) }
    }

    /// An organizer changes their own password on /account: the current one first, the new one twice and long
    /// enough; their other sessions end, this one stays; the old password no longer signs in, the new one does.
    /// The operator's reset (`set-organizer-password`) ends every session.
    @Test func anOrganizerChangesTheirPassword() async throws {
        let h = try await Harness(.sqliteInMemory)
        let (tenant, _, _) = try await h.event()
        try await h.organizer(of: tenant)
        try await h.app().test(.router) { client in
            let (cookie, csrf) = try await Self.signIn(client, email: "ann%40example.org")
            let (other, _) = try await Self.signIn(client, email: "ann%40example.org")
            #expect(
                try await client.execute(uri: "/account", method: .get, headers: [.cookie: cookie]) {
                    String(buffer: $0.body)
                }.contains("ann@example.org"))
            func change(_ current: String, _ new: String, _ repeated: String) async throws -> (
                HTTPResponse.Status, String
            ) {
                try await client.execute(
                    uri: "/account/password", method: .post, headers: Self.form(cookie: cookie),
                    body: ByteBuffer(string: "csrf=\(csrf)&current=\(current)&password=\(new)&again=\(repeated)")
                ) { ($0.status, String(buffer: $0.body)) }
            }
            let old = "correct+horse+battery"
            #expect(try await change("wrong-password", "new+password+here", "new+password+here").1.contains("is wrong"))
            #expect(try await change(old, "new+password+here", "new+password+there").1.contains("differ"))
            #expect(try await change(old, "short", "short").1.contains("shorter than 10"))
            #expect(try await change(old, "new+password+here", "new+password+here").0 == .seeOther)
            func status(_ cookie: String) async throws -> HTTPResponse.Status {
                try await client.execute(uri: "/events", method: .get, headers: [.cookie: cookie]) { $0.status }
            }
            #expect(try await status(cookie) == .ok, "this session stays")
            #expect(try await status(other) == .seeOther, "the other session ended")
            let form = try await SignInThrottleTests.signInForm(client)
            #expect(
                try await SignInThrottleTests.attempt(client, form, email: "ann%40example.org", password: old)
                    == .unauthorized)
            #expect(
                try await SignInThrottleTests.attempt(
                    client, form, email: "ann%40example.org", password: "new+password+here") == .seeOther)
            // The operator's reset ends this session too.
            _ = try await h.admin.setOrganizerPassword(email: "ann@example.org", password: "operator reset 1")
            #expect(try await status(cookie) == .seeOther)
        }
        let actions = try await h.repository.auditEntries(tenant: tenant.id, limit: 50).map(\.action)
        #expect(actions.filter { $0 == "organizer_password_set" }.count == 2)
        #expect(actions.contains("password_change_refused"))
    }

    /// The wording a new organizer tripped over: an unknown page is the site's own "Not found" with a way back
    /// (the API keeps its plain 404), the events list links every page of an event, counts of one are singular,
    /// and times name their zone instead of "(server time)".
    @Test func unknownPagesCountsAndTimesReadAsAnOrganizerExpects() async throws {
        let h = try await Harness(.sqliteInMemory)
        let (tenant, event, guests) = try await h.event(guests: 3)
        try await h.organizer(of: tenant)
        let e = "/events/\(event.id.rawValue)"
        try await h.app().test(.router) { client in
            let (cookie, _) = try await Self.signIn(client, email: "ann%40example.org")
            func get(_ uri: String) async throws -> (HTTPResponse.Status, String) {
                try await client.execute(uri: uri, method: .get, headers: [.cookie: cookie]) {
                    ($0.status, String(buffer: $0.body))
                }
            }
            for path in ["/no-such-page", "/events/1/no-such-tab", "/static/none.css"] {
                let (status, page) = try await get(path)
                #expect(status == .notFound && page.contains("<h1>Not found</h1>"), "\(path)")
                #expect(page.contains("href=\"/events\""), "a way back")
            }
            let api = try await get("/v1/no-such-route")
            #expect(api.0 == .notFound && !api.1.contains("<html"))
            let events = try await get("/events").1
            for tab in ["", "/monitor", "/guests", "/devices"] {
                #expect(events.contains("href=\"\(e)\(tab)\""), "\(tab)")
            }
            // When the guests' personal data goes, then that it went.
            #expect(events.contains("is purged on") && events.contains("30 days after the event ends"), "\(events)")

            let one = try await get("\(e)/guests?q=\(guests[1].id.text)").1
            #expect(one.contains("1 guest matches"), "\(one)")
            let monitor = try await get("\(e)/monitor").1
            #expect(monitor.contains("0 devices") && !monitor.contains("server time"))
            let id = TimeZone.current.identifier
            let zone = ["GMT", "UTC", "Etc/UTC", "Etc/GMT"].contains(id) ? "UTC" : id
            #expect(monitor.contains("(\(zone)) · 0 devices"), "\(monitor)")
            _ = try await h.repository.purgePersonalData(event: event.id, at: h.clock.now())
            #expect(try await get("/events").1.contains("personal data was purged on"))
        }
    }

    /// Every organizer's page is behind the session middleware: signed out (no cookie, or one naming no live
    /// session), a page sends the browser to sign in, a live part answers 401, and no page runs (a POST changes
    /// nothing and audits nothing).
    @Test func everyOrganizerPageNeedsASession() async throws {
        let h = try await Harness(.sqliteInMemory)
        let (_, event, _) = try await h.event()
        let e = "/events/\(event.id.rawValue)"
        let pages: [(HTTPRequest.Method, String)] = [
            (.post, "/sign-out"), (.get, "/events"), (.get, e), (.get, "\(e)/monitor"), (.get, "\(e)/double-entries"),
            (.get, "\(e)/guests"), (.post, "\(e)/guests"), (.post, "\(e)/guests/import"),
            (.post, "\(e)/guests/NOU3WYMHOVZQ4Q2T/cancel"), (.post, "\(e)/passes/1/retry"), (.get, "\(e)/devices"),
            (.post, "\(e)/enrolment-codes"), (.post, "\(e)/devices/d1/revoke"), (.post, "\(e)/offline-alerts"),
            (.get, "/events/999/guests"),
        ]
        let audited = try await h.repository.auditEntries(tenant: nil, limit: 1000).count
        try await h.app().test(.router) { client in
            for cookie in ["", "__Host-checkin_session=ws_NOTALIVESESSION"] {
                for (method, path) in pages {
                    try await client.execute(
                        uri: path, method: method,
                        headers: [.cookie: cookie, .contentType: "application/x-www-form-urlencoded"],
                        body: ByteBuffer(string: "csrf=x&name=Zed")
                    ) { response in
                        #expect(response.status == .seeOther, "\(method) \(path)")
                        #expect(response.headers[.location] == "/sign-in", "\(method) \(path)")
                    }
                }
                for path in ["\(e)/live", "\(e)/monitor/live", "/events/999/live"] {
                    try await client.execute(uri: path, method: .get, headers: [.cookie: cookie]) { response in
                        #expect(response.status == .unauthorized, "\(path)")
                    }
                }
            }
        }
        #expect(try await h.repository.searchGuests(event: event.id, text: "Zed", limit: 10).isEmpty)
        #expect(try await h.repository.auditEntries(tenant: nil, limit: 1000).count == audited)
    }

    @Test(arguments: RepositoryFactory.all)
    func signInNeedsThePasswordAndTheFormsCSRFToken(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, _, _) = try await h.event()
        _ = try await h.admin.createOrganizer(
            tenant: tenant.id, email: "Ann@Example.org", name: "Ann", password: Self.password)
        try await h.app().test(.router) { client in
            try await client.execute(uri: "/events", method: .get) { response in
                #expect(response.status == .seeOther && response.headers[.location] == "/sign-in")
            }
            let (signInCookie, csrf) = try await client.execute(uri: "/sign-in", method: .get) { response in
                (Self.cookie(response, "__Host-checkin_signin"), Self.csrf(String(buffer: response.body)))
            }
            // A wrong password: 401 and the form again.
            try await client.execute(
                uri: "/sign-in", method: .post, headers: Self.form(cookie: signInCookie),
                body: ByteBuffer(string: "email=ann%40example.org&password=wrong-password&csrf=\(csrf)")
            ) { response in
                #expect(response.status == .unauthorized)
                #expect(String(buffer: response.body).contains("Wrong e-mail or password"))
            }
            // The right password without the form's token (a forged cross-site post): 403, no session.
            try await client.execute(
                uri: "/sign-in", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "email=ann%40example.org&password=correct+horse+battery&csrf=\(csrf)")
            ) { response in
                #expect(response.status == .forbidden)
                #expect(!response.headers[values: .setCookie].contains { $0.hasPrefix("__Host-checkin_session=") })
            }
            let (cookie, pageCSRF) = try await Self.signIn(client, email: "ann%40example.org")
            try await client.execute(uri: "/events", method: .get, headers: [.cookie: cookie]) { response in
                let html = String(buffer: response.body)
                #expect(html.contains("Gala") && html.contains("id=\"account-link\">Ann</a> · Acme"))
                #expect(response.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            }
            // Signing out needs the session's token too.
            try await client.execute(
                uri: "/sign-out", method: .post, headers: Self.form(cookie: cookie),
                body: ByteBuffer(string: "csrf=forged")
            ) { response in #expect(response.status == .forbidden) }
            try await client.execute(
                uri: "/sign-out", method: .post, headers: Self.form(cookie: cookie),
                body: ByteBuffer(string: "csrf=\(pageCSRF)")
            ) { response in #expect(response.status == .seeOther) }
            try await client.execute(uri: "/events", method: .get, headers: [.cookie: cookie]) { response in
                #expect(response.status == .seeOther, "the session is gone")
            }
        }
        let audit = try await h.repository.auditEntries(tenant: nil, limit: 50).map(\.action)
        #expect(audit.contains("sign_in_failed") && audit.contains("csrf_refused") && audit.contains("signed_in"))
    }

    @Test(arguments: RepositoryFactory.all)
    func theMonitorShowsPillsAtTenAndThirtyMinutesAndTheEmptyState(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event()
        try await h.organizer(of: tenant)
        let (otherTenant, otherEvent, _) = try await h.event(tenantName: "Other")
        _ = otherTenant
        try await h.app().test(.router) { client in
            let (cookie, _) = try await Self.signIn(client, email: "ann%40example.org")
            func live() async throws -> String {
                try await client.execute(
                    uri: "/events/\(event.id.rawValue)/monitor/live", method: .get, headers: [.cookie: cookie]
                ) { response in
                    #expect(response.status == .ok)
                    return String(buffer: response.body)
                }
            }
            #expect(try await live().contains("No kiosk is enrolled"))

            let north = try await client.enrol(h, event: event.id, door: "North")
            let south = try await client.enrol(h, event: event.id, door: "South")
            _ = try await client.enrol(h, event: otherEvent.id, door: "Elsewhere")
            try await Self.report(client, north, door: "North", pending: 3)
            h.clock.advance(by: 5 * 60)
            try await Self.report(client, south, door: "South", pending: 0)
            var html = try await live()
            #expect(html.contains("pill-live") && !html.contains("pill-stale") && !html.contains("Elsewhere"))
            #expect(!html.contains("empty-state"))

            h.clock.advance(by: 5 * 60)  // North silent 10 min: stale
            html = try await live()
            #expect(html.contains("id=\"device-\(north.id)\" data-health=\"stale\""), "\(html)")
            #expect(html.contains("id=\"device-\(south.id)\" data-health=\"live\""))

            h.clock.advance(by: 20 * 60)  // North 30 min: offline; South 25: stale
            html = try await live()
            #expect(html.contains("id=\"device-\(north.id)\" data-health=\"offline\""))
            #expect(html.contains("id=\"device-\(south.id)\" data-health=\"stale\""))
            #expect(!html.contains("empty-state"))

            h.clock.advance(by: 5 * 60)  // nobody for 30 min: the venue may be down
            html = try await live()
            #expect(html.contains("empty-state") && html.contains("network problem at the venue"))

            // Another tenant's event answers like one that does not exist.
            let other = try await client.execute(
                uri: "/events/\(otherEvent.id.rawValue)/monitor", method: .get, headers: [.cookie: cookie]
            ) { response in (response.status, String(buffer: response.body)) }
            let missing = try await client.execute(
                uri: "/events/99999/monitor", method: .get, headers: [.cookie: cookie]
            ) { response in (response.status, String(buffer: response.body)) }
            #expect(other.0 == .notFound && missing.0 == .notFound && other.1 == missing.1)
        }
        let audit = try await h.repository.auditEntries(tenant: tenant.id, limit: 50).map(\.action)
        #expect(audit.contains("cross_tenant"))
    }
}

extension WebPageTests {
    @Test(arguments: RepositoryFactory.all)
    func theMonitorFlagsAClockOffByMoreThanTwoMinutesAndARosterBehind(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event()
        try await h.organizer(of: tenant)
        try await h.app().test(.router) { client in
            let (cookie, _) = try await Self.signIn(client, email: "ann%40example.org")
            func row(_ device: EnrolledDevice) async throws -> String {
                let html = try await client.execute(
                    uri: "/events/\(event.id.rawValue)/monitor/live", method: .get, headers: [.cookie: cookie]
                ) { String(buffer: $0.body) }
                let start = try #require(html.range(of: "id=\"device-\(device.id)\""))
                return String(html[start.lowerBound...].split(separator: "</tr>")[0])
            }
            let north = try await client.enrol(h, event: event.id, door: "North")
            let south = try await client.enrol(h, event: event.id, door: "South")
            let cursor = try #require(try await client.roster("", event: event.id, as: north).changeCursor)
            // North's clock is 5 minutes fast (server minus device is negative); South's 90 s slow.
            try await Self.report(
                client, north, door: "North", pending: 0, rosterCursor: cursor, clockOffsetMs: -300_000)
            try await Self.report(client, south, door: "South", pending: 0, rosterCursor: cursor, clockOffsetMs: 90_000)
            var northRow = try await row(north)
            var southRow = try await row(south)
            #expect(northRow.contains("clock 5 min fast") && northRow.contains("up to date"), "\(northRow)")
            #expect(!southRow.contains("clock") && southRow.contains("up to date"), "\(southRow)")

            // Two guests added after the kiosks' download, one of them cancelled since: two rows they have not
            // seen (a kiosk gets each changed row once, as it is now).
            let added = try await h.repository.addGuests(
                [NewGuest(name: "Late One"), NewGuest(name: "Late Two")], event: event.id, at: h.clock.now())
            _ = try await h.repository.cancelGuest(added[0].id, event: event.id, at: h.clock.now())
            h.clock.advance(by: 11)  // the server keeps a device's report at most every 10 s
            try await Self.report(
                client, south, door: "South", pending: 0, rosterCursor: cursor, clockOffsetMs: 150_000)
            northRow = try await row(north)
            southRow = try await row(south)
            #expect(northRow.contains("2 changes behind"), "\(northRow)")
            #expect(southRow.contains("2 changes behind") && southRow.contains("clock 3 min slow"), "\(southRow)")

            // South catches up: up to date again.
            let delta = try await client.roster("?changesSince=\(cursor)", event: event.id, as: south)
            #expect(delta.guests.count == 2)
            h.clock.advance(by: 11)
            try await Self.report(
                client, south, door: "South", pending: 0, rosterCursor: try #require(delta.changeCursor))
            southRow = try await row(south)
            #expect(southRow.contains("up to date") && !southRow.contains("clock"), "\(southRow)")
        }
    }

    @Test(arguments: [RepositoryFactory.sqliteInMemory])
    func repeatedWrongPasswordsAreThrottledForFifteenMinutes(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, _, _) = try await h.event()
        try await h.organizer(of: tenant)
        try await h.app().test(.router) { client in
            let (signInCookie, csrf) = try await client.execute(uri: "/sign-in", method: .get) { response in
                (Self.cookie(response, "__Host-checkin_signin"), Self.csrf(String(buffer: response.body)))
            }
            func attempt(_ password: String) async throws -> HTTPResponse.Status {
                try await client.execute(
                    uri: "/sign-in", method: .post, headers: Self.form(cookie: signInCookie),
                    body: ByteBuffer(string: "email=ann%40example.org&password=\(password)&csrf=\(csrf)")
                ) { $0.status }
            }
            for _ in 0..<5 { #expect(try await attempt("guess") == .unauthorized) }
            // The sixth is refused before the password is looked at, even the right one.
            #expect(try await attempt("correct+horse+battery") == .tooManyRequests)
            h.clock.advance(by: 15 * 60)
            #expect(try await attempt("correct+horse+battery") == .seeOther)
        }
        let audit = try await h.repository.auditEntries(tenant: nil, limit: 50).map(\.action)
        #expect(audit.filter { $0 == "sign_in_failed" }.count == 5 && audit.contains("sign_in_throttled"))
    }
}

/// The pills' thresholds, as pure values.
@Suite(.dropsTestDatabases) struct DeviceHealthTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func thresholdsAreTenAndThirtyMinutes() {
        #expect(DeviceHealth(lastSeen: nil, now: now) == .neverSeen)
        #expect(DeviceHealth(lastSeen: now - 599, now: now) == .live)
        #expect(DeviceHealth(lastSeen: now - 600, now: now) == .stale)
        #expect(DeviceHealth(lastSeen: now - 1799, now: now) == .stale)
        #expect(DeviceHealth(lastSeen: now - 1800, now: now) == .offline)
        #expect(DeviceHealth.noneRecentlySeen([], now: now))
        #expect(DeviceHealth.noneRecentlySeen([nil, now - 1800], now: now))
        #expect(!DeviceHealth.noneRecentlySeen([nil, now - 1800, now - 1799], now: now))
    }
}
