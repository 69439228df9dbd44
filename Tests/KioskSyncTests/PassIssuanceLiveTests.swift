import CheckinAPI
import CheckinWebhooks
import Foundation
import KioskCore
import KioskDecoding
import KioskImageIO
import KioskTesting
import TestSupport
import Testing

/// Pass issuance with the real processes: a `checkin-server serve` over HTTPS sending through a real SMTP
/// server on loopback (aiosmtpd, Tests/SMTP/relay.py), guests from signed webhooks or a CSV import, a kiosk
/// that synced with that server, and the server killed (SIGKILL) between steps and at random moments.
@Suite("Pass issuance, live: webhook to e-mail to door, and crashes", .serialized)
struct PassIssuanceLiveTests {
    /// A server (tenant 1, event 1) sending pass e-mails to `relay`, not yet started; its webhook secret.
    static func server(relay: TestSMTPRelay, postgres: String? = nil, setUp: Bool = true) throws -> (
        LiveServer, String
    ) {
        let server = LiveServer(folder: LiveProcesses.temporaryFolder(), postgres: postgres)
        try LiveProcesses.makeCertificates(in: server.folder)
        var secret = ""
        if setUp {
            #expect(try server.admin(["create-tenant", "--name", "Acme"]) == "1")
            #expect(
                try server.admin([
                    "create-event", "--tenant", "1", "--name", "Winter Gala", "--venue", "Main Hall", "--starts",
                    "2030-01-01T18:00:00Z", "--ends", "2030-01-01T23:00:00Z",
                ]) == "1")
            secret = try server.admin(["webhook-secret", "--tenant", "1"])
        }
        server.serveArguments = [
            "--smtp-url", "smtp+plain://127.0.0.1:\(relay.port)", "--mail-from", "passes@checkin.test",
            "--public-url", server.url, "--pass-dir", "passes",
        ]
        return (server, secret)
    }

    /// POSTs a guest webhook signed with `secret` (curl, the server's CA); returns the answer's body.
    static func webhook(_ server: LiveServer, secret: String, id: String, payload: GuestWebhookPayload) throws
        -> GuestWebhookResult
    {
        let body = try APICoding.encoder().encode(payload)
        let file = server.folder + "/webhook-\(id).json"
        try body.write(to: URL(fileURLWithPath: file))
        let timestamp = Int64(Date().timeIntervalSince1970)
        let signature = StandardWebhook.sign(
            id: id, timestamp: timestamp, body: [UInt8](body), secret: try WebhookSecretKey(secret))
        let r = try LiveProcesses.shell(
            """
            curl -s --fail-with-body --cacert ca.pem -H 'content-type: application/json' -H 'webhook-id: \(id)' \
            -H 'webhook-timestamp: \(timestamp)' -H 'webhook-signature: \(signature)' --data-binary @\(file) \
            \(server.url)/v1/webhooks/tenants/1/guests
            """, in: server.folder)
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

    static func header(_ mail: ReceivedMail, _ name: String) -> String? {
        mail.headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    @Test func aSignedWebhookBecomesAnEmailWhoseQRCodeTheKioskAdmits() async throws {
        let relay = try TestSMTPRelay.start()
        let (server, secret) = try Self.server(relay: relay)
        try await server.start()
        defer { server.stop() }
        let added = try Self.webhook(
            server, secret: secret, id: "msg_e2e_1",
            payload: GuestWebhookPayload(
                type: "guest.created",
                data: GuestWebhookData(
                    eventId: 1, reference: "shop-1001", name: "Zoë Quinn", email: "zoe@example.org", partySize: 2)))
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
        #expect(text.contains(code) && text.contains(server.url.uppercased() + "/P/"))
        let image = try #require(mail.images.first)
        let contentID = try #require(image.contentID).trimmingCharacters(in: CharacterSet(charactersIn: "<>"))
        #expect(html.contains("cid:" + contentID) && image.contentType == "image/png")

        // The inline image holds the pass URL; the pass page shows the pass.
        let qr = try ImageFile.decode(data: image.data, name: "pass.png")
        let payloads = KioskDecoder().decode(qr).map { String(decoding: $0.payload, as: UTF8.self) }
        let url = try #require(payloads.first)
        #expect(payloads.count == 1 && url.hasPrefix(server.url.uppercased() + "/P/") && text.contains(url))
        let page = try LiveProcesses.shell(
            "curl -s --cacert ca.pem '\(url.lowercased().prefix(server.url.count))/p/\(url.split(separator: "/").last!)'",
            in: server.folder)
        #expect(page.out.contains("Zoë") && page.out.contains(code))

        // A kiosk that synced with this server, trusting the server's exported keys, admits that image held
        // up to its camera (the e-mail's image printed and held up, as the camera sees it).
        let door = LiveProcesses.temporaryFolder()
        try FileManager.default.copyItem(atPath: server.folder + "/ca.pem", toPath: door + "/ca.pem")
        let keys = try server.admin(["signing-keys", "--tenant", "1"])
        try """
        door = North
        tenant = 1
        event = 1
        \(keys)
        database = kiosk.db
        server = \(server.url)
        server_ca = ca.pem
        display = text

        """.write(toFile: door + "/kiosk.conf", atomically: true, encoding: .utf8)
        let enrolment = try server.admin(["enrolment-code", "--event", "1"])
        let enrolled = try LiveProcesses.run(
            "kioskctl",
            ["enroll", "--config", "kiosk.conf", "--server", server.url, "--code", enrolment, "--ca-file", "ca.pem"],
            in: door)
        try #require(enrolled.status == 0, "\(enrolled.err)")
        var rng = SplitMix64(seed: 2026)
        let frame = DoorScenes.render(.plain, code: qr, moduleSize: 8, severity: 0.3, rng: &rng)
        try FileManager.default.createDirectory(atPath: door + "/frames", withIntermediateDirectories: true)
        try ImageFile.writePNG(frame, to: door + "/frames/0001.png")
        let replay = try LiveProcesses.run("kiosk", ["--config", "kiosk.conf", "--replay", "frames"], in: door)
        #expect(replay.status == 0, "\(replay.err)")
        #expect(replay.out.contains("\"admitted\""), "out: \(replay.out)\nerr: \(replay.err)\nframes: \(door)")
    }
}
