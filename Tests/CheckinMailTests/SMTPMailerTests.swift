import CheckinMail
import DedicatedThreads
import Foundation
import Glibc
import ImageFiles
import KioskDecoding
import TestSupport
import Testing

/// Messages sent through libcurl to a real SMTP relay on loopback (`Tests/SMTP/relay.py`, aiosmtpd), checked by
/// Python's own MIME parser.
@Suite struct SMTPMailerTests {
    static func plainRelay(_ relay: TestSMTPRelay) throws -> SMTPMailer {
        SMTPMailer(relay: try SMTPRelay(url: "smtp+plain://127.0.0.1:\(relay.port)"))
    }

    static func certificates() async throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-certs-" + UUID().uuidString)
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try await TestCertificates.make(in: folder)
        return folder
    }

    @Test func aPassMessageArrivesWhole() async throws {
        let relay = try await TestSMTPRelay.start()
        let message = try PassMail.make()
        try await Self.plainRelay(relay).send(message)

        let received = try relay.received()
        try #require(received.count == 1)
        let mail = received[0]
        #expect(mail.defects == [])
        #expect(mail.raw == MIMEWriter.write(message))
        #expect(mail.envelope.mailFrom == "passes@checkin.example")
        #expect(mail.envelope.rcptTos == ["zoe@guests.example"])
        #expect(mail.envelope.tls == false)
        #expect(mail.headers["Message-ID"] == "<issue-4711-send-pass@checkin.example>")
        #expect(mail.headers["Subject"] == "Your pass for Winter Gala – Zoë")
        #expect(mail.headers["To"] == "Zoë Martin <zoe@guests.example>")
        #expect(mail.headers["From"] == "Winter Gala <passes@checkin.example>")
        #expect(mail.headers["Date"] == "Tue, 01 Dec 2026 18:00:00 +0000")
        #expect(
            mail.structure
                == ReceivedMail.Part(
                    type: "multipart/alternative",
                    parts: [
                        .init(type: "text/plain"),
                        .init(type: "multipart/related", parts: [.init(type: "text/html"), .init(type: "image/png")]),
                    ]))
        #expect(mail.text == message.text)
        #expect(mail.html == message.html)
        let text = try #require(mail.text)
        #expect(text.contains(PassMail.passURL))
        let html = try #require(mail.html)
        #expect(html.contains("Winter Gala") && html.contains("party of 3") && html.contains("1 December 2026"))

        try #require(mail.images.count == 1)
        let image = mail.images[0]
        #expect(image.contentID == "<pass-qr@checkin.example>")
        #expect(html.contains("src=\"cid:pass-qr@checkin.example\""))
        #expect(image.contentType == "image/png")
        #expect(image.disposition == "inline")
        #expect(image.filename == "pass.png")
        #expect(image.data == (try PassMail.qrPNG()))
    }

    @Test func theInlineQRCodeDecodesToThePassURL() async throws {
        let relay = try await TestSMTPRelay.start()
        try await Self.plainRelay(relay).send(try PassMail.make())
        let image = try #require(try relay.received().first?.images.first)
        // The project's own reader: libpng through ImageFiles, zbar through the kiosk's decoder.
        let frame = try ImageFile.decode(data: image.data, name: image.file)
        #expect(KioskDecoder().decode(frame).map(\.payload) == [Array(PassMail.passURL.utf8)])
    }

    @Test func starttlsVerifiesTheRelayAgainstTheCAFileAndAuthenticates() async throws {
        let certificates = try await Self.certificates()
        defer { try? FileManager.default.removeItem(atPath: certificates) }
        let relay = try await TestSMTPRelay.start(
            .init(
                certificate: (certificates + "/server.pem", certificates + "/server.key"),
                credentials: ("mailer", "s3cret pass")))
        let mailer = SMTPMailer(
            relay: try SMTPRelay(
                url: "smtp://mailer@localhost:\(relay.port)", password: "s3cret pass",
                caFile: certificates + "/ca.pem"))
        try await mailer.send(try PassMail.make())
        let mail = try #require(try relay.received().first)
        #expect(mail.envelope.tls)
        #expect(mail.envelope.authenticatedAs == "mailer")
        #expect(mail.headers["Message-ID"] == "<issue-4711-send-pass@checkin.example>")
    }

    @Test func implicitTLSVerifiesTheRelay() async throws {
        let certificates = try await Self.certificates()
        defer { try? FileManager.default.removeItem(atPath: certificates) }
        let relay = try await TestSMTPRelay.start(
            .init(certificate: (certificates + "/server.pem", certificates + "/server.key"), implicitTLS: true))
        let mailer = SMTPMailer(
            relay: try SMTPRelay(url: "smtps://127.0.0.1:\(relay.port)", caFile: certificates + "/ca.pem"))
        try await mailer.send(try PassMail.make())
        #expect(try relay.received().map(\.envelope.tls) == [true])
    }

    @Test func aRelayCertificateFromAnotherCAIsRefused() async throws {
        let relayCertificates = try await Self.certificates()
        defer { try? FileManager.default.removeItem(atPath: relayCertificates) }
        let otherCA = try await Self.certificates()
        defer { try? FileManager.default.removeItem(atPath: otherCA) }
        let relay = try await TestSMTPRelay.start(
            .init(certificate: (relayCertificates + "/server.pem", relayCertificates + "/server.key")))
        let mailer = SMTPMailer(
            relay: try SMTPRelay(url: "smtp://localhost:\(relay.port)", caFile: otherCA + "/ca.pem"))
        let error = try await #require(throws: SMTPError.self) { try await mailer.send(try PassMail.make()) }
        #expect(error.kind == .tlsFailed)
        #expect(error.isTransient)
        #expect(error.curlCode == 60)  // CURLE_PEER_FAILED_VERIFICATION
        #expect(error.curlMessage.contains("certificate"), "\(error.curlMessage)")
        #expect(error.description.contains("CA file"))
        #expect(try relay.received().isEmpty)
    }

    @Test func aRelayWithoutSTARTTLSIsRefusedBeforeTheMessageGoesOut() async throws {
        let relay = try await TestSMTPRelay.start()
        let mailer = SMTPMailer(relay: try SMTPRelay(url: "smtp://127.0.0.1:\(relay.port)"))
        let error = try await #require(throws: SMTPError.self) { try await mailer.send(try PassMail.make()) }
        #expect(error.kind == .tlsFailed)
        #expect(error.curlCode == 64)  // CURLE_USE_SSL_FAILED
        #expect(error.curlMessage.contains("STARTTLS"), "\(error.curlMessage)")
        #expect(try relay.received().isEmpty)
    }

    @Test func aWrongPasswordIsPermanent() async throws {
        let certificates = try await Self.certificates()
        defer { try? FileManager.default.removeItem(atPath: certificates) }
        let relay = try await TestSMTPRelay.start(
            .init(
                certificate: (certificates + "/server.pem", certificates + "/server.key"),
                credentials: ("mailer", "right")))
        let mailer = SMTPMailer(
            relay: try SMTPRelay(
                url: "smtp://mailer@localhost:\(relay.port)", password: "wrong", caFile: certificates + "/ca.pem"))
        let error = try await #require(throws: SMTPError.self) { try await mailer.send(try PassMail.make()) }
        #expect(error.kind == .rejectedPermanently)
        #expect(error.replyCode == 535)
        #expect(!error.isTransient)
        #expect(!error.description.contains("wrong"))
        #expect(try relay.received().isEmpty)
    }

    @Test(arguments: [
        ("tempfail@guests.example", SMTPError.Kind.rejectedTemporarily, 451, "451 4.3.0 Mailbox temporarily"),
        ("permfail@guests.example", .rejectedPermanently, 550, "550 5.1.1 No such user here"),
        ("tempfail-data@guests.example", .rejectedTemporarily, 451, "451 4.7.1 Message deferred"),
        ("permfail-data@guests.example", .rejectedPermanently, 554, "554 5.6.0 Message refused"),
    ])
    func refusalsCarryTheRelaysReply(recipient: String, kind: SMTPError.Kind, code: Int, text: String) async throws {
        let relay = try await TestSMTPRelay.start()
        let error = try await #require(throws: SMTPError.self) {
            try await Self.plainRelay(relay).send(try PassMail.make(to: recipient))
        }
        #expect(error.kind == kind)
        #expect(error.isTransient == (code < 500))
        #expect(error.replyCode == code)
        #expect(error.replyText?.hasPrefix(text) == true, "\(error)")
        #expect(error.description.contains(text))
        #expect(try relay.received().isEmpty)
    }

    @Test func aGreylistedMessageSentAgainArrivesOnceWithTheSameMessageID() async throws {
        let relay = try await TestSMTPRelay.start(.init(temporaryFailures: 1))
        let mailer = try Self.plainRelay(relay)
        let error = try await #require(throws: SMTPError.self) { try await mailer.send(try PassMail.make()) }
        #expect(error.isTransient && error.replyCode == 451)
        try await mailer.send(try PassMail.make())
        let received = try relay.received()
        #expect(received.map { $0.headers["Message-ID"] } == ["<issue-4711-send-pass@checkin.example>"])
    }

    @Test func aRefusedConnectionIsTransient() async throws {
        let socket = try LoopbackSocket()
        let port = socket.port
        socket.close()
        let mailer = SMTPMailer(relay: try SMTPRelay(url: "smtp+plain://127.0.0.1:\(port)"))
        let error = try await #require(throws: SMTPError.self) { try await mailer.send(try PassMail.make()) }
        #expect(error.kind == .unreachable)
        #expect(error.isTransient)
        #expect(error.replyCode == nil)
        #expect(error.curlCode == 7)  // CURLE_COULDNT_CONNECT
        #expect(error.curlMessage.contains("\(port)"), "\(error.curlMessage)")
    }

    /// libcurl leaves the total timeout out of QUIT; the per-reply timeout bounds it (default 120 s). A relay that
    /// took the message and never says goodbye: the send succeeds (the 250 came) once the reply timeout ends.
    @Test func aRelayThatNeverAnswersQuitHoldsTheSendOnlyForTheTimeout() async throws {
        let relay = try await TestSMTPRelay.start(.init(silentQuit: true))
        let mailer = SMTPMailer(
            relay: try SMTPRelay(host: "127.0.0.1", port: relay.port, security: .none, timeout: .seconds(2)))
        let clock = ContinuousClock()
        // Measured on threads of its own: on the 2-thread cooperative pool, blocked by other tests waiting for
        // child processes, the send's resumption waited 90 s in two full runs on a loaded machine.
        let took = try await withTaskExecutorPreference(ThreadExecutor.testServers) {
            try await clock.measure { try await mailer.send(try PassMail.make()) }
        }
        #expect(took < .seconds(60), "\(took): QUIT was waited for longer than the 2 s timeout allows")
        #expect(try relay.received().count == 1)
    }

    @Test func aSilentRelayTimesOut() async throws {
        let silent = try LoopbackSocket()
        let mailer = SMTPMailer(
            relay: try SMTPRelay(
                host: "127.0.0.1", port: silent.port, security: .none, timeout: .milliseconds(500)))
        let error = try await #require(throws: SMTPError.self) { try await mailer.send(try PassMail.make()) }
        #expect(error.kind == .timedOut)
        #expect(error.isTransient)
        #expect(error.curlCode == 28)  // CURLE_OPERATION_TIMEDOUT
    }

    @Test func cancellingTheTaskStopsTheTransfer() async throws {
        let silent = try LoopbackSocket()
        // libcurl waits for the greeting under the connect timeout (the whole SMTP connect phase counts), so both
        // limits are far away.
        let mailer = SMTPMailer(
            relay: try SMTPRelay(
                host: "127.0.0.1", port: silent.port, security: .none, connectTimeout: .seconds(120),
                timeout: .seconds(120)))
        let sending = Task { try await mailer.send(try PassMail.make()) }
        // Once the silent relay has the connection, the transfer is inside curl_easy_perform, waiting for a
        // greeting that never comes. A thread of its own cancels right then and times how long libcurl takes to
        // close the connection: neither may wait for the test's task, which the concurrency pool of a loaded
        // machine running the whole suite may not run for many seconds (a cancel sent from it came after the
        // 10 s connect timeout had ended the transfer with code 28).
        let stopped = await DedicatedThread.run(named: "cancel-send") {
            let client = silent.acceptOne()
            defer { close(client) }
            let clock = ContinuousClock()
            let cancelled = clock.now
            sending.cancel()
            let closed = LoopbackSocket.waitForClose(of: client, within: .seconds(100))
            return closed ? clock.now - cancelled : nil
        }
        let result = await sending.result
        // Well before the 120 s timeout (libcurl calls the progress callback at least once a second).
        let stopTime = try #require(stopped, "libcurl still held the connection 100 s after the cancel")
        #expect(stopTime < .seconds(30))
        let error = try #require(throws: SMTPError.self) { try result.get() }
        #expect(error.kind == .cancelled)
        #expect(error.curlCode == 42)  // CURLE_ABORTED_BY_CALLBACK: stopped inside curl_easy_perform
        #expect(error.isTransient)
    }
}
