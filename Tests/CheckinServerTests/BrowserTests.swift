import CheckinCore
import CheckinServer
import Foundation
import Hummingbird
import HummingbirdTesting
import KioskCore
import PassFormat
import TestSupport
import Testing
import WireAPI

/// The organizer's pages in a real headless Chromium (Debian's `chromium`, scripts/install-chromium.sh),
/// against the server over HTTPS: sign in, the sync monitor's rows and pills on an injected clock, its live
/// update when a kiosk reports in, the empty state, another tenant's event answering 404, a forged form 403.
/// Takes the screenshots of docs/SERVER.md and the README (desktop and phone width) into `.build/screenshots`, and into
/// `docs/screenshots` with CHECKIN_UPDATE_SCREENSHOTS=1.
@Suite(.serialized, .enabled(if: Chromium.isAvailable, "needs Debian's chromium: scripts/install-chromium.sh"))
struct BrowserTests {
    static let password = "correct horse battery"

    /// Where the screenshots go.
    static let folders: [String] = {
        var folders = [ChildProcess.packageRoot + "/.build/screenshots"]
        if ProcessInfo.processInfo.environment["CHECKIN_UPDATE_SCREENSHOTS"] == "1" {
            folders.append(ChildProcess.packageRoot + "/docs/screenshots")
        }
        for folder in folders {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        return folders
    }()

    static func screenshots(_ page: BrowserPage, _ name: String) async throws {
        for (suffix, width, height, mobile) in [("desktop", 1280, 800, false), ("phone", 390, 844, true)] {
            try await page.setViewport(width: width, height: height, mobile: mobile, deviceScaleFactor: mobile ? 2 : 1)
            // The whole page at desktop width; what a phone shows first at phone width.
            for folder in folders {
                try await page.screenshot(to: "\(folder)/\(name)-\(suffix).png", fullPage: !mobile)
            }
        }
        try await page.setViewport(width: 1280, height: 800)
    }

    /// axe-core (`scripts/install-axe.sh`) on the page as it is now: no serious or critical violation.
    static func accessible(_ page: BrowserPage, _ name: String) async throws {
        let path = ChildProcess.packageRoot + "/.build/axe/axe.min.js"
        guard let axe = FileManager.default.contents(atPath: path).map({ String(decoding: $0, as: UTF8.self) }) else {
            Issue.record("\(path) is missing: run scripts/install-axe.sh (scripts/test.sh does)")
            return
        }
        if try await page.evaluate("typeof axe") != "object" { try await page.evaluate(axe + "\n;'loaded'") }
        // Top-level await, the answer as JSON text: axe 3 brings its own `Promise`, which the DevTools protocol
        // does not await when it is the expression's value.
        let found = try await page.evaluate(
            """
            JSON.stringify((await axe.run(document)).violations
              .filter(v => v.impact === 'serious' || v.impact === 'critical')
              .map(v => v.impact + ' ' + v.id + ' (' + v.help + '): '
                + v.nodes.slice(0, 5).map(n => n.target.join(' ')).join(', ')))
            """, timeout: .seconds(60))
        let violations = try JSONDecoder().decode([String].self, from: Data((found ?? "").utf8))
        #expect(violations.isEmpty, "\(name): \(violations.joined(separator: "; "))")
    }

    /// A kiosk, through the server's own routes (a second application on the same database and clock).
    struct Kiosk: Sendable {
        let enrolment: Enrolment
        var headers: HTTPFields { [.authorization: "Bearer \(enrolment.token)", CheckinHeader.kioskVersion: "1.4.2"] }
    }

    static func withKioskAPI<T: Sendable>(
        _ server: BrowserServer, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> T
    ) async throws -> T {
        let app = try buildApplication(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0), repository: server.repository,
            clock: server.clock)
        return try await app.test(.router) { client in try await body(client) }
    }

    static func enrol(_ client: some TestClientProtocol, _ server: BrowserServer, event: EventID, door: String)
        async throws -> Kiosk
    {
        let code = try await server.admin.createEnrolmentCode(event: event).code
        return try await client.execute(
            uri: "/v1/enrolments/redeem", method: .post, headers: [.contentType: "application/json"],
            body: ByteBuffer(
                bytes: try APICoding.encoder().encode(EnrolmentRequest(code: code, door: door, kioskVersion: "1.4.2")))
        ) { response in
            #expect(response.status == .ok)
            return Kiosk(
                enrolment: try APICoding.decoder().decode(Enrolment.self, from: Data(response.body.readableBytesView)))
        }
    }

    static func report(_ client: some TestClientProtocol, _ kiosk: Kiosk, door: String, pending: Int, at time: Date)
        async throws
    {
        let beat = Heartbeat(
            door: door, kioskVersion: "1.4.2", pending: pending, oldestPendingAt: nil, rosterCursor: "c",
            rosterFetchedAt: time, camera: "streaming", clockOffsetMs: 0, deviceTime: time)
        try await client.execute(
            uri: "/v1/devices/heartbeat", method: .post, headers: kiosk.headers,
            body: ByteBuffer(bytes: try APICoding.encoder().encode(beat))
        ) { response in #expect(response.status == .ok) }
    }

    @Test func anOrganizerWatchesTheDoorsInARealBrowser() async throws {
        let server = try await BrowserServer()
        defer { Task { await server.stop() } }
        let start = BrowserServer.start
        let tenant = try await server.admin.createTenant(name: "Acme Events")
        let event = try await server.admin.createEvent(
            EventInput(
                name: "Winter Gala", venue: "Harbour Hall", opsContact: "Venue ops, +1 555 0100",
                startsAt: start.addingTimeInterval(-3600), endsAt: start.addingTimeInterval(5 * 3600)),
            tenant: tenant.id)
        let guests = try await server.repository.addGuests(
            (0..<40).map { i in
                NewGuest(
                    name: ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Hedy Lamarr", "Katherine Johnson"][i % 5]
                        + (i < 5 ? "" : " \(i)"), email: "guest\(i)@example.org", partySize: 1 + i % 3,
                    arrivalAlert: i == 22 ? "Tell the host she has arrived" : nil)
            }, event: event.id, at: start)
        let other = try await server.admin.createTenant(name: "Other Org")
        let otherEvent = try await server.admin.createEvent(
            EventInput(name: "Private", startsAt: start, endsAt: start.addingTimeInterval(3600)), tenant: other.id)
        _ = try await server.admin.createOrganizer(
            tenant: tenant.id, email: "ann@example.org", name: "Ann Organizer", password: Self.password)

        // Three kiosks: North last heard 35 minutes ago, South 12, East now; some check-ins at each.
        let kiosks = try await Self.withKioskAPI(server) { client in
            var kiosks: [String: Kiosk] = [:]
            for door in ["North", "South", "East"] {
                kiosks[door] = try await Self.enrol(client, server, event: event.id, door: door)
            }
            for (index, guest) in guests.prefix(24).enumerated() {
                let door = ["North", "South", "East"][index % 3]
                let scanned = start.addingTimeInterval(-Double(40 - index) * 60)
                let item = CheckInItem(
                    key: ItemKey(
                        deviceId: kiosks[door]!.enrolment.deviceId, epoch: kiosks[door]!.enrolment.queueEpoch,
                        sequence: Int64(index + 1)), guestId: guest.id.text, kind: .checkIn, scannedAt: scanned,
                    clockOffsetMs: 0, arrived: guest.partySize, door: door, source: "camera")
                try await client.execute(
                    uri: "/v1/events/\(event.id.rawValue)/check-ins", method: .post, headers: kiosks[door]!.headers,
                    body: ByteBuffer(bytes: try APICoding.encoder().encode(CheckInBatch(items: [item])))
                ) { response in #expect(response.status == .ok) }
            }
            server.clock.set(start.addingTimeInterval(-35 * 60))
            try await Self.report(client, kiosks["North"]!, door: "North", pending: 4, at: server.clock.now())
            server.clock.set(start.addingTimeInterval(-12 * 60))
            try await Self.report(client, kiosks["South"]!, door: "South", pending: 0, at: server.clock.now())
            server.clock.set(start)
            try await Self.report(client, kiosks["East"]!, door: "East", pending: 1, at: server.clock.now())
            return kiosks
        }

        // Upper bounds only: the whole suite runs beside this test on 2 cores (15 s once ran out in CI).
        let browser = try await Chromium.launch(timeout: .seconds(60))
        defer { browser.close() }
        let page = try await browser.newPage()

        // Signing in, with the keyboard only: Tab to each field, type, Enter.
        try await page.navigate(to: server.url + "/events")
        #expect(try await page.url().hasSuffix("/sign-in"))
        try await Self.accessible(page, "sign-in")
        #expect(try await page.tab(to: "#skip-link") == 1, "the first Tab offers to skip to the content")
        try await page.tab(to: "#email")
        try await page.typeText("ann@example.org")
        try await page.tab(to: "#password")
        try await page.typeText("wrong password")
        try await page.press(.enter, waitingForLoad: true)
        #expect(page.status == 401)
        #expect(try await page.evaluate("document.querySelector('.error').textContent")?.contains("Wrong") == true)
        try await Self.accessible(page, "sign-in with an error")
        try await page.tab(to: "#password")
        try await page.typeText(Self.password)
        try await page.press(.enter, waitingForLoad: true)
        #expect(try await page.url().hasSuffix("/events"))
        #expect(try await page.evaluate("document.body.innerText")?.contains("Winter Gala") == true)
        try await Self.accessible(page, "events")

        // The monitor: one row per device, the pills by last contact.
        let monitor = server.url + "/events/\(event.id.rawValue)/monitor"
        try await page.navigate(to: monitor)
        #expect(page.status == 200)
        func health(_ door: String) async throws -> String? {
            try await page.evaluate(
                "document.querySelector('#device-\(kiosks[door]!.enrolment.deviceId)')?.dataset.health ?? null")
        }
        #expect(try await health("North") == "offline")
        #expect(try await health("South") == "stale")
        #expect(try await health("East") == "live")
        let pills = try await page.evaluate(
            "[...document.querySelectorAll('.pill')].map(p => p.textContent + ':' + getComputedStyle(p).backgroundColor).join(' ')"
        )
        #expect(pills?.contains("offline:rgb(255, 217, 222)") == true, "\(pills ?? "")")
        #expect(pills?.contains("stale:rgb(255, 233, 168)") == true, "\(pills ?? "")")
        try await Self.screenshots(page, "monitor")
        try await Self.accessible(page, "monitor")

        // A kiosk reports in: the row appears without a reload.
        _ = try await page.evaluate("window.stillTheSamePage = true")
        try await Self.withKioskAPI(server) { client in
            let west = try await Self.enrol(client, server, event: event.id, door: "West")
            try await Self.report(client, west, door: "West", pending: 0, at: server.clock.now())
        }
        try await page.waitFor(
            "document.querySelector('#monitor-live').innerText.includes('West')", timeout: .seconds(60))
        #expect(try await page.evaluate("String(window.stillTheSamePage === true)") == "true")

        // Time passes on the server's clock: at 10 minutes East and West turn stale; after 30 without anybody,
        // the empty state says the venue may be down, with the ops contact.
        server.clock.advance(by: 10 * 60)
        try await page.waitFor(
            "document.querySelector('#device-\(kiosks["East"]!.enrolment.deviceId)')?.dataset.health === 'stale'",
            timeout: .seconds(60))
        server.clock.advance(by: 20 * 60)
        try await page.waitFor("document.querySelector('#empty-state') !== null", timeout: .seconds(60))
        let empty = try await page.evaluate("document.querySelector('#empty-state').innerText") ?? ""
        #expect(empty.contains("No devices have synced in the last 30 minutes"))
        #expect(empty.contains("Venue ops, +1 555 0100"))
        #expect(try await page.evaluate("String(window.stillTheSamePage === true)") == "true")
        server.clock.set(start)

        // The dashboard and the guest list, for docs/SERVER.md and the README.
        try await page.navigate(to: server.url + "/events/\(event.id.rawValue)")
        #expect(try await page.evaluate("document.querySelector('#checked-in').textContent") == "24")
        #expect(try await page.evaluate("String(document.querySelectorAll('svg.chart rect').length > 3)") == "true")
        try await Self.screenshots(page, "dashboard")
        try await Self.accessible(page, "dashboard")
        try await page.navigate(to: server.url + "/events/\(event.id.rawValue)/guests")
        #expect(try await page.evaluate("String(document.querySelectorAll('#guests tbody tr').length)") == "40")
        // Every field has a label, and every button says what it does.
        #expect(
            try await page.evaluate(
                "String([...document.querySelectorAll('input:not([type=hidden])')].every(i => i.labels.length > 0))")
                == "true")
        #expect(
            try await page.evaluate(
                "String([...document.querySelectorAll('button')].every(b => (b.getAttribute('aria-label') || b.textContent).trim().length > 0))"
            ) == "true")
        try await Self.screenshots(page, "guests")
        try await Self.accessible(page, "guests")
        // A guest found and checked in with the keyboard only.
        try await page.tab(to: "#q")
        try await page.typeText("Katherine Johnson 39")
        try await page.press(.enter, waitingForLoad: true)
        #expect(try await page.evaluate("document.querySelector('#guests tbody').innerText")?.contains("39") == true)
        try await page.tab(to: "button[aria-label='Check in Katherine Johnson 39']")
        try await page.press(.enter, waitingForLoad: true)
        #expect(try await page.evaluate("document.body.innerText")?.contains("Undo check-in") == true)

        // The devices page: offline alerts set through its form, with labels on every field.
        try await page.navigate(to: server.url + "/events/\(event.id.rawValue)/devices")
        #expect(
            try await page.evaluate(
                "String([...document.querySelectorAll('input:not([type=hidden])')].every(i => i.labels.length > 0))")
                == "true")
        try await page.type(into: "#alert-email", text: "ops@example.org")
        try await page.type(into: "#alert-webhook", text: "https://ops.example.org/hooks/doors")
        try await page.submit("form[action$='/offline-alerts']")
        #expect(try await page.evaluate("document.querySelector('.notice').textContent") == "Offline alerts saved.")
        let secret = try await page.evaluate("document.querySelector('#alert-secret').textContent") ?? ""
        #expect(secret.hasPrefix("whsec_"))
        #expect(try await server.repository.offlineAlerts(event: event.id).webhookSecret == secret)
        try await Self.screenshots(page, "devices")
        try await Self.accessible(page, "devices")

        // A double entry of a guest whose name is 200 characters without a space: the report lists both doors,
        // and the page fits a 360 px phone without scrolling sideways.
        let long = try await server.repository.addGuests(
            [NewGuest(name: String(repeating: "Wolfeschlegelsteinhausen", count: 9).prefix(200).description)],
            event: event.id, at: start)[0]
        try await Self.withKioskAPI(server) { client in
            for (door, minutes) in [("North", 3.0), ("South", 1.0)] {
                let kiosk = kiosks[door]!
                let item = CheckInItem(
                    key: ItemKey(deviceId: kiosk.enrolment.deviceId, epoch: kiosk.enrolment.queueEpoch, sequence: 100),
                    guestId: long.id.text, kind: .checkIn, scannedAt: start.addingTimeInterval(-minutes * 60),
                    clockOffsetMs: 0, arrived: 1, door: door, source: "camera")
                try await client.execute(
                    uri: "/v1/events/\(event.id.rawValue)/check-ins", method: .post, headers: kiosk.headers,
                    body: ByteBuffer(bytes: try APICoding.encoder().encode(CheckInBatch(items: [item])))
                ) { response in #expect(response.status == .ok) }
            }
        }
        try await page.navigate(to: server.url + "/events/\(event.id.rawValue)/double-entries")
        #expect(
            try await page.evaluate("document.querySelector('#double-entry-count').textContent") == "1 double entry.")
        let row = try await page.evaluate("document.querySelector('#double-entries tbody tr').innerText") ?? ""
        #expect(row.contains("South") && row.contains("North") && row.contains("2 min 0 s"), "\(row)")
        try await page.setViewport(width: 360, height: 740, mobile: true, deviceScaleFactor: 2)
        let overflow = try await page.evaluate("String(document.documentElement.scrollWidth)") ?? ""
        #expect(Int(overflow).map { $0 <= 360 } == true, "the page is \(overflow) px wide at 360 px")
        try await Self.screenshots(page, "double-entries")
        try await Self.accessible(page, "double-entries")
        // The other pages an organizer reaches, each checked as it first shows.
        try await page.setViewport(width: 1280, height: 800)
        let ada = guests[0].id.text
        for (name, path) in [
            ("no-shows", "/events/\(event.id.rawValue)/no-shows"), ("account", "/account"),
            ("guest-edit", "/events/\(event.id.rawValue)/guests/\(ada)/edit"),
            ("cancel-confirm", "/events/\(event.id.rawValue)/guests/\(ada)/cancel"), ("not-found", "/nowhere"),
        ] {
            try await page.navigate(to: server.url + path)
            try await Self.accessible(page, name)
        }
        let signedOut = try await browser.newPage(isolated: true)
        try await signedOut.navigate(to: server.url + "/password-reset")
        try await Self.accessible(signedOut, "password-reset")
        // Every page of the event fits the phone (the import card was 400 px wide in a 390 px screen).
        for tab in ["", "/monitor", "/guests", "/devices"] {
            try await page.navigate(to: server.url + "/events/\(event.id.rawValue)\(tab)")
            try await page.setViewport(width: 360, height: 740, mobile: true, deviceScaleFactor: 2)
            let width = try await page.evaluate("String(document.documentElement.scrollWidth)") ?? ""
            #expect(Int(width).map { $0 <= 360 } == true, "\(tab) is \(width) px wide at 360 px")
        }
        // A walk-in refused by the server (a name of spaces passes the browser's `required`): the error shows in
        // the walk-in form's card, on screen, not at the top of the page.
        try await page.navigate(to: server.url + "/events/\(event.id.rawValue)/guests")
        try await page.type(into: "#name", text: "   ")
        try await page.submit("#walk-in")
        let shown = try await page.evaluate(
            "(() => { const e = document.querySelector('#walk-in .error'); if (!e) return 'none'; "
                + "const r = e.getBoundingClientRect(); return String(r.top >= 0 && r.bottom <= innerHeight) })()")
        #expect(shown == "true", "the walk-in's error is on screen: \(shown ?? "nil")")

        // Another tenant's event answers like one that does not exist.
        try await page.navigate(to: server.url + "/events/\(otherEvent.id.rawValue)/monitor")
        #expect(page.status == 404)
        let foreign = try await page.evaluate("document.body.innerText")
        try await page.navigate(to: server.url + "/events/99999/monitor")
        #expect(page.status == 404)
        #expect(try await page.evaluate("document.body.innerText") == foreign)

        // A form whose token was tampered with is refused, and the organizer stays signed in.
        try await page.navigate(to: server.url + "/events")
        _ = try await page.evaluate(
            "document.querySelector('form[action=\"/sign-out\"] input[name=csrf]').value = 'forged'")
        try await page.submit("form[action=\"/sign-out\"]")
        #expect(page.status == 403)
        try await page.navigate(to: server.url + "/events")
        #expect(try await page.url().hasSuffix("/events"))

        let audit = try await server.repository.auditEntries(tenant: tenant.id, limit: 100).map(\.action)
        #expect(audit.contains("cross_tenant") && audit.contains("csrf_refused"))
    }
}
