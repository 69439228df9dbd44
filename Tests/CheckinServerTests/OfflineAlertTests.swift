import CheckinCore
import CheckinMail
import CheckinServer
import CheckinWebhooks
import Foundation
import Hummingbird
import HummingbirdTesting
import KioskCore
import Logging
import PostgresTestSupport
import TestSupport
import Testing
import WireAPI

@testable import CheckinAdmin

/// The organizer's offline alerts end to end: set on the devices page, a kiosk silent for 30 minutes during the
/// event alerted once per silence by e-mail (a real SMTP relay) and by a signed webhook (a real HTTP receiver),
/// retried through a 451 and a 503 with the same ids, and "back online" when it reports again.
@Suite(.dropsTestDatabases) struct OfflineAlertTests {
    static let quiet = {
        var logger = Logger(label: "device-watch")
        logger.logLevel = .critical
        return logger
    }()

    static func watch(_ h: Harness, relayPort: Int) throws -> DeviceWatch {
        let mailer = RelayMailer(
            relay: try SMTPRelay(url: "smtp+plain://127.0.0.1:\(relayPort)"),
            from: try MailAddress("alerts@checkin.test"))
        return DeviceWatch(
            repository: h.repository,
            sender: OfflineAlertSender(
                repository: h.repository, mailer: mailer, publicURL: "https://checkin.example.org",
                timeZone: TimeZone(identifier: "UTC")!, allowPrivateWebhooks: true),
            clock: h.clock, logger: Self.quiet)
    }

    @Test(arguments: [RepositoryFactory.sqliteFile, RepositoryFactory.postgres])
    func aSilentDoorIsAlertedOncePerSilenceByEmailAndSignedWebhook(_ factory: RepositoryFactory) async throws {
        let relay = try await TestSMTPRelay.start(.init(temporaryFailures: 1))
        defer { relay.stop() }
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event(guests: 1)
        try await h.organizer(of: tenant)
        let watch = try Self.watch(h, relayPort: relay.port)
        // The receiver fails the first delivery (503): it comes again after the backoff, with the same id.
        let receiver = WebhookReceiver(answering: [503])
        try await receiver.run { port in
            try await h.app(allowPlainHTTPWebhooks: true, allowPrivateWebhooks: true).test(.router) { client in
                let (cookie, csrf) = try await WebPageTests.signIn(client, email: "ann%40example.org")
                let devicesPage = "/events/\(event.id.rawValue)/devices"
                func post(_ body: String) async throws -> (HTTPResponse.Status, String) {
                    try await client.execute(
                        uri: "/events/\(event.id.rawValue)/offline-alerts", method: .post,
                        headers: WebPageTests.form(cookie: cookie), body: ByteBuffer(string: body)
                    ) { ($0.status, String(buffer: $0.body)) }
                }
                func page() async throws -> String {
                    try await client.execute(uri: devicesPage, method: .get, headers: [.cookie: cookie]) {
                        String(buffer: $0.body)
                    }
                }
                let hook = "http://127.0.0.1:\(port)/hook"
                let encodedHook = hook.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!

                // Refused settings say why and keep what was typed; a forged form changes nothing.
                let (badStatus, badPage) = try await post("csrf=\(csrf)&email=not-an-address&webhookURL=")
                #expect(badStatus == .unprocessableContent)
                #expect(badPage.contains("is not an e-mail address") && badPage.contains("value=\"not-an-address\""))
                let (userStatus, userPage) = try await post(
                    "csrf=\(csrf)&email=&webhookURL=\("http://me:pw@127.0.0.1/hook".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
                )
                #expect(userStatus == .unprocessableContent && userPage.contains("no user or password"))
                #expect(try await post("email=ops%40example.org").0 == .forbidden)
                #expect(try await h.repository.offlineAlerts(event: event.id).isOn == false)

                // The secret is shown once, on the answer that made it; afterwards only its last 4 characters.
                let (saved, savedPage) = try await post(
                    "csrf=\(csrf)&email=ops%40example.org&webhookURL=\(encodedHook)")
                #expect(saved == .ok)
                let settings = try await h.repository.offlineAlerts(event: event.id)
                #expect(settings.email == "ops@example.org" && settings.webhookURL == hook)
                let secretText = try #require(settings.webhookSecret)
                #expect(savedPage.contains("id=\"alert-secret\">\(secretText)<"))
                let shown = try await page()
                #expect(!shown.contains(secretText) && shown.contains("value=\"ops@example.org\""))
                #expect(shown.contains("id=\"alert-secret-ending\">…\(secretText.suffix(4))<"))
                let (resaved, resavedPage) = try await post(
                    "csrf=\(csrf)&email=ops%40example.org&webhookURL=\(encodedHook)")
                #expect(resaved == .seeOther && !resavedPage.contains(secretText))
                #expect(try await h.repository.offlineAlerts(event: event.id).webhookSecret == secretText)
                let secret = try WebhookSecretKey(secretText)
                #expect(
                    try await h.repository.auditEntries(tenant: tenant.id, limit: 5).contains {
                        $0.action == "offline_alerts_set" && $0.detail.contains("ops@example.org")
                    })

                let north = try await client.enrol(h, event: event.id, door: "North")
                let south = try await client.enrol(h, event: event.id, door: "South")
                try await WebPageTests.report(client, north, door: "North", pending: 0)
                try await WebPageTests.report(client, south, door: "South", pending: 0)
                let northSeen = h.clock.now()

                // 29 minutes of silence is not offline yet; South reports at 20 minutes.
                h.clock.advance(by: 20 * 60)
                try await WebPageTests.report(client, south, door: "South", pending: 2)
                h.clock.advance(by: 9 * 60)
                #expect(try await watch.check().isEmpty)
                h.clock.advance(by: 2 * 60)
                let queued = try await watch.check()
                #expect(Set(queued.map(\.channel)) == [.email, .webhook])
                #expect(queued.allSatisfy { $0.door == "North" && $0.kind == .offline && $0.lastSeenAt == northSeen })

                // The relay greylists the e-mail (451) and the receiver answers 503: both wait and go again.
                let first = try await watch.sendDue()
                #expect(first.count == 2 && first.allSatisfy { $0.state == .pending && $0.attempts == 1 })
                #expect(try await watch.sendDue().isEmpty, "nothing is due before the backoff")
                h.clock.advance(by: 31)
                let second = try await watch.sendDue()
                #expect(second.count == 2 && second.allSatisfy { $0.state == .sent })

                // Every minute for the next half hour: North's silence is not alerted again; South's (silent
                // since minute 20) is, once.
                var later: [AlertDelivery] = []
                for _ in 0..<30 {
                    h.clock.advance(by: 60)
                    later += try await watch.check()
                    try await watch.sendDue()
                }
                #expect(later.count == 2 && later.allSatisfy { $0.door == "South" && $0.kind == .offline })

                // North reports again: "back online", once.
                try await WebPageTests.report(client, north, door: "North", pending: 3)
                let back = try await watch.check()
                #expect(back.count == 2 && back.allSatisfy { $0.door == "North" && $0.kind == .backOnline })
                #expect(try await watch.check().isEmpty)
                try await watch.sendDue()

                // And a new silence of North is a new alert.
                h.clock.advance(by: 31 * 60)
                let again = try await watch.check()
                #expect(again.filter { $0.door == "North" && $0.kind == .offline }.count == 2)
                try await watch.sendDue()

                // The webhooks: each verifies with the page's secret; the retried one kept its id.
                let hooks = receiver.received
                var types: [String] = []
                for request in hooks {
                    let id = try StandardWebhook.verify(
                        id: request.headers["webhook-id"], timestamp: request.headers["webhook-timestamp"],
                        signature: request.headers["webhook-signature"], body: request.body, secrets: [secret],
                        now: Date(timeIntervalSince1970: Double(request.headers["webhook-timestamp"] ?? "0") ?? 0))
                    let alert = try APICoding.decoder().decode(DeviceAlert.self, from: Data(request.body))
                    #expect(alert.data.eventId == event.id.rawValue && alert.data.monitorUrl.hasSuffix("/monitor"))
                    if request.status == 204 { types.append("\(alert.type) \(alert.data.door)") }
                    #expect(id.hasPrefix("alert_"))
                }
                #expect(hooks.first?.status == 503 && hooks[1].headers["webhook-id"] == hooks[0].headers["webhook-id"])
                #expect(
                    types == [
                        "device.offline North", "device.offline South", "device.back_online North",
                        "device.offline North",
                    ])
                let firstAlert = try APICoding.decoder().decode(DeviceAlert.self, from: Data(hooks[1].body))
                #expect(firstAlert.data.lastSeenAt == northSeen && firstAlert.data.deviceId == north.id)

                // The e-mails: one per alert, no defects, the Message-ID the alert's own.
                let mails = try relay.received()
                #expect(
                    mails.map { $0.headers["Subject"] ?? "" } == [
                        "Offline: North at Gala", "Offline: South at Gala", "Back online: North at Gala",
                        "Offline: North at Gala",
                    ])
                #expect(mails.allSatisfy { $0.defects.isEmpty && $0.envelope.rcptTos == ["ops@example.org"] })
                #expect(mails[0].text?.contains("/events/\(event.id.rawValue)/monitor") == true)
                let emailed = try await h.repository.alertDeliveries(event: event.id, limit: 20)
                    .filter { $0.channel == .email && $0.state == .sent }
                #expect(
                    Set(mails.compactMap { $0.headers["Message-ID"] })
                        == Set(emailed.map { $0.messageID(domain: "checkin.example.org") }))

                // The page lists them.
                let listed = try await page()
                #expect(listed.contains("id=\"alerts\"") && listed.contains("back online"))

                // Alerts off: one queued before is not sent, and a new silence queues nothing.
                try await WebPageTests.report(client, south, door: "South", pending: 0)
                #expect(try await watch.check().count == 2)  // South back online, queued
                #expect(try await post("csrf=\(csrf)&email=&webhookURL=").0 == .seeOther)
                let dropped = try await watch.sendDue()
                #expect(
                    dropped.count == 2
                        && dropped.allSatisfy { $0.state == .failed && $0.lastError?.contains("turned off") == true })
                h.clock.advance(by: 31 * 60)
                #expect(try await watch.check().isEmpty)
            }
        }
    }

    /// Several server processes watch the same database: each silence is recorded and alerted once.
    @Test func twoWatchersOnOnePostgreSQLAlertOnce() async throws {
        let database = try await PostgresTestDatabase.migrated()
        let first = try await database.repository()
        let second = try await database.repository()
        let clock = ManualServerClock(Harness.start)
        let admin = CheckinAdmin(repository: first, clock: clock)
        let tenant = try await admin.createTenant(name: "Acme")
        let event = try await admin.createEvent(
            EventInput(name: "Gala", startsAt: Harness.start, endsAt: Harness.start.addingTimeInterval(6 * 3600)),
            tenant: tenant.id)
        _ = try await admin.setOfflineAlerts(
            event: event, email: "ops@example.org", webhookURL: "", allowPlainHTTP: false)
        var devices: [String] = []
        for door in 0..<20 {
            try await first.createEnrolmentCode(
                EnrolmentCode(
                    codeHash: "code\(door)", tenant: tenant.id, event: event.id, createdAt: clock.now(),
                    expiresAt: clock.now().addingTimeInterval(600)))
            let device = try await first.redeemEnrolment(
                Enrolling(
                    codeHash: "code\(door)", newDeviceId: "dev_\(door)", tokenHash: "token\(door)",
                    queueEpoch: "q\(door)", door: "Door \(door)", kioskVersion: "1.0.0"),
                at: clock.now())
            try await first.recordHeartbeat(
                DeviceReport(door: "Door \(door)", kioskVersion: "1.0.0", pending: 0, camera: "ok", deviceTime: Date()),
                device: device.id, at: clock.now())
            devices.append(device.id)
        }
        clock.advance(by: 31 * 60)
        let watchers = [first, second].map { repository in
            DeviceWatch(
                repository: repository,
                sender: OfflineAlertSender(repository: repository, mailer: nil, publicURL: "https://x.test"),
                clock: clock, logger: Self.quiet)
        }
        let queued = try await withThrowingTaskGroup(of: Int.self) { group in
            for watcher in watchers + watchers {
                group.addTask { try await watcher.check().count }
            }
            return try await group.reduce(0, +)
        }
        #expect(queued == 20)
        let stored = try await first.alertDeliveries(event: event.id, limit: 100)
        #expect(stored.count == 20 && Set(stored.map(\.device)) == Set(devices))
        // Both send at once: each alert is attempted once (no relay here: each fails once, with the reason).
        let sent = try await withThrowingTaskGroup(of: [AlertDelivery].self) { group in
            for watcher in watchers { group.addTask { try await watcher.sendDue() } }
            return try await group.reduce([], +)
        }
        #expect(sent.count == 20 && Set(sent.map(\.id)).count == 20)
        #expect(sent.allSatisfy { $0.state == .failed && $0.lastError?.contains("no SMTP relay") == true })
    }
}
