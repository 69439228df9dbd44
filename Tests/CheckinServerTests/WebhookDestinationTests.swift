import CheckinCore
import CheckinServer
import DedicatedThreads
import Foundation
import KioskCore
import Logging
import TestSupport
import Testing

@testable import CheckinAdmin

/// Offline-alert webhooks cannot point inside the network: refused when saved and again when sent (against the
/// address looked up then, which is the one connected to); errors say "refused" or fail generically, never
/// what a port answered; deliveries go out several at once, so a dead receiver holds up no other tenant.
@Suite struct WebhookDestinationTests {
    static let internalURLs = [
        "https://169.254.169.254/latest/meta-data/", "https://127.0.0.1:6443/", "https://10.0.0.5/",
        "https://172.16.0.1/", "https://192.168.1.1/", "https://[::1]/", "https://localhost/",
        "https://api.localhost/", "https://100.64.0.1/", "https://[fe80::1]/", "https://[fd00::1]/",
        "https://[::ffff:127.0.0.1]/", "https://[::ffff:a9fe:a9fe]/", "https://0.0.0.0/", "https://224.0.0.1/",
        "https://[ff02::1]/", "https://[::]/", "https://2130706433/", "https://0x7f.1/",
    ]

    @Test func internalAddressesAreRefusedWhenSaved() async throws {
        let h = try await Harness(.sqliteInMemory)
        let (_, event, _) = try await h.event()
        for url in Self.internalURLs {
            do {
                _ = try await h.admin.setOfflineAlerts(event: event, email: "", webhookURL: url, allowPlainHTTP: false)
                Issue.record("\(url) was accepted")
            } catch let failure as CheckinAdmin.Failure {
                #expect(failure.description.contains("refused"), "\(url): \(failure)")
            }
        }
        #expect(try await h.repository.offlineAlerts(event: event.id).webhookURL == nil)
        // A public address is fine; --allow-private-webhooks lets a receiver on the venue's network in.
        let publicReceiver = try await h.admin.setOfflineAlerts(
            event: event, email: "", webhookURL: "https://93.184.215.14/hook", allowPlainHTTP: false)
        #expect(publicReceiver.webhookURL == "https://93.184.215.14/hook")
        let venue = try await h.admin.setOfflineAlerts(
            event: event, email: "", webhookURL: "http://10.0.0.5/hook", allowPlainHTTP: true, allowPrivate: true)
        #expect(venue.webhookURL == "http://10.0.0.5/hook")
    }

    /// A device of `event` last seen now, so that 31 minutes on it is silent.
    static func device(_ h: Harness, _ event: Event, door: String) async throws {
        let code = "code-\(door)"
        try await h.repository.createEnrolmentCode(
            EnrolmentCode(
                codeHash: code, tenant: event.tenant, event: event.id, createdAt: h.clock.now(),
                expiresAt: h.clock.now().addingTimeInterval(600)))
        let device = try await h.repository.redeemEnrolment(
            Enrolling(
                codeHash: code, newDeviceId: "dev-\(door)", tokenHash: "token-\(door)", queueEpoch: "q-\(door)",
                door: door, kioskVersion: "1.0.0"),
            at: h.clock.now())
        try await h.repository.recordHeartbeat(
            DeviceReport(door: door, kioskVersion: "1.0.0", pending: 0, camera: "ok", deviceTime: Date()),
            device: device.id, at: h.clock.now())
    }

    static func watch(_ h: Harness, allowPrivate: Bool, timeout: Int64 = 10, atOnce: Int = 8) -> DeviceWatch {
        var quiet = Logger(label: "device-watch")
        quiet.logLevel = .critical
        return DeviceWatch(
            repository: h.repository,
            sender: OfflineAlertSender(
                repository: h.repository, mailer: nil, publicURL: "https://checkin.example.org",
                webhookTimeout: .seconds(timeout), allowPrivateWebhooks: allowPrivate),
            clock: h.clock, deliveriesAtOnce: atOnce, logger: quiet)
    }

    @Test func theAddressIsCheckedAgainWhenSentAndFailuresSayNothingOfThePort() async throws {
        let h = try await Harness(.sqliteInMemory)
        let (_, event, _) = try await h.event()
        let receiver = WebhookReceiver()
        try await withTaskExecutorPreference(ThreadExecutor.testServers) {
            try await receiver.run { port in
                // Saved while allowed (as a name that resolved to a public address would be)...
                _ = try await h.admin.setOfflineAlerts(
                    event: event, email: "", webhookURL: "http://127.0.0.1:\(port)/hook", allowPlainHTTP: true,
                    allowPrivate: true)
                try await Self.device(h, event, door: "North")
                h.clock.advance(by: 31 * 60)
                // ...and sent by a server that does not allow it: refused at connect time, nothing sent.
                #expect(try await Self.watch(h, allowPrivate: false).check().count == 1)
                let refused = try await Self.watch(h, allowPrivate: false).sendDue()
                #expect(refused.count == 1 && refused[0].state == .failed)
                #expect(refused[0].lastError?.hasPrefix("refused") == true, "\(refused[0].lastError ?? "")")
                #expect(receiver.received.isEmpty)
            }
        }
        // A closed port: the error is the same as for any receiver out of reach (not "connection refused").
        let closed = try SilentListener()
        let port = closed.port
        _ = consume closed
        _ = try await h.admin.setOfflineAlerts(
            event: event, email: "", webhookURL: "http://127.0.0.1:\(port)/hook", allowPlainHTTP: true,
            allowPrivate: true)
        try await Self.device(h, event, door: "South")
        h.clock.advance(by: 31 * 60)
        let watch = Self.watch(h, allowPrivate: true, timeout: 2)
        try await watch.check()
        let failed = try await watch.sendDue().filter { $0.door == "South" }
        #expect(failed.count == 1)
        #expect(failed[0].lastError == "the webhook receiver could not be reached, or did not answer in time")
    }

    @Test func aDeadReceiverDoesNotHoldUpAnotherTenantsAlert() async throws {
        let h = try await Harness(.sqliteInMemory)
        let (_, dead, _) = try await h.event(tenantName: "Dead")
        let (_, live, _) = try await h.event(tenantName: "Live")
        let silent = try SilentListener()
        let receiver = WebhookReceiver()
        try await withTaskExecutorPreference(ThreadExecutor.testServers) {
            try await receiver.run { port in
                _ = try await h.admin.setOfflineAlerts(
                    event: dead, email: "", webhookURL: "http://127.0.0.1:\(silent.port)/hook", allowPlainHTTP: true,
                    allowPrivate: true)
                _ = try await h.admin.setOfflineAlerts(
                    event: live, email: "", webhookURL: "http://127.0.0.1:\(port)/hook", allowPlainHTTP: true,
                    allowPrivate: true)
                let watch = Self.watch(h, allowPrivate: true, timeout: 8)
                // The dead receiver's alert is due first: its kiosk went silent 5 minutes earlier.
                try await Self.device(h, dead, door: "Dead")
                h.clock.advance(by: 5 * 60)
                try await Self.device(h, live, door: "Live")
                h.clock.advance(by: 26 * 60)
                #expect(try await watch.check().map(\.door) == ["Dead"])
                h.clock.advance(by: 5 * 60)
                #expect(try await watch.check().map(\.door) == ["Live"])
                let started = ContinuousClock.now
                async let sent = watch.sendDue()
                // The live receiver has its alert long before the dead one's 8 s timeout.
                while receiver.received.isEmpty && ContinuousClock.now - started < .seconds(10) {
                    try await Task.sleep(for: .milliseconds(20))
                }
                let waited = ContinuousClock.now - started
                #expect(!receiver.received.isEmpty)
                #expect(waited < .seconds(4), "the live tenant's alert waited \(waited)")
                let results = try await sent
                #expect(results.count == 2)
            }
        }
    }

    @Test func addressKinds() async throws {
        let h = try await Harness(.sqliteInMemory)
        let (_, event, _) = try await h.event()
        for (host, refused) in [
            ("8.8.8.8", false), ("2606:4700::1111", false), ("100.63.255.255", false), ("100.128.0.1", false),
            ("172.32.0.1", false), ("100.64.0.1", true), ("172.31.255.255", true), ("169.254.169.254", true),
            ("fe80::1", true), ("fc00::1", true), ("::ffff:10.0.0.1", true), ("64:ff9b::a00:1", true),
            ("2002:a00:1::", true), ("255.255.255.255", true),
        ] {
            let url = host.contains(":") ? "https://[\(host)]/" : "https://\(host)/"
            var refusal: (any Error)?
            do {
                _ = try await h.admin.setOfflineAlerts(event: event, email: "", webhookURL: url, allowPlainHTTP: false)
            } catch { refusal = error }
            #expect((refusal != nil) == refused, "\(host): \(refusal.map { "\($0)" } ?? "allowed")")
        }
    }
}
