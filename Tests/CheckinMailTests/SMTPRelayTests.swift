import Foundation
import Testing

@testable import CheckinMail

@Suite struct SMTPRelayTests {
    @Test func urlsNameTheSecurityAndDefaultPort() throws {
        let starttls = try SMTPRelay(url: "smtp://mailer@relay.example", password: "s3cret")
        #expect(starttls.host == "relay.example")
        #expect(starttls.port == 587)
        #expect(starttls.security == .starttls)
        #expect(starttls.credentials == (try SMTPRelay.Credentials(username: "mailer", password: "s3cret")))
        #expect(starttls.curlURL == "smtp://relay.example:587")

        let implicit = try SMTPRelay(url: "smtps://relay.example:2465")
        #expect(implicit.port == 2465)
        #expect(implicit.security == .implicitTLS)
        #expect(implicit.credentials == nil)
        #expect(implicit.curlURL == "smtps://relay.example:2465")

        let loopback = try SMTPRelay(url: "smtp+plain://127.0.0.1:2525")
        #expect(loopback.security == SMTPRelay.Security.none)
        #expect(loopback.port == 2525)
        #expect(try SMTPRelay(url: "smtp+plain://[::1]").curlURL == "smtp://[::1]:25")
    }

    @Test func refusalsSayWhatToChange() throws {
        #expect(throws: SMTPRelayError.invalidURL("http://relay.example", reason: "unknown scheme \"http\"")) {
            try SMTPRelay(url: "http://relay.example")
        }
        #expect(
            throws: SMTPRelayError.invalidURL(
                "smtp://u:p@relay.example", reason: "a password in the URL; give it from a secret file instead")
        ) {
            try SMTPRelay(url: "smtp://u:p@relay.example")
        }
        #expect(throws: SMTPRelayError.plaintextNotLoopback(host: "relay.example")) {
            try SMTPRelay(url: "smtp+plain://relay.example")
        }
        #expect(throws: SMTPRelayError.plaintextNotLoopback(host: "127.0.0.1.relay.example")) {
            try SMTPRelay(url: "smtp+plain://127.0.0.1.relay.example")
        }
        #expect(throws: SMTPRelayError.plaintextNotLoopback(host: "127.evil.relay.example")) {
            try SMTPRelay(url: "smtp+plain://127.evil.relay.example")
        }
        #expect(try SMTPRelay(url: "smtp+plain://127.0.0.2").host == "127.0.0.2")
        #expect(try SMTPRelay(url: "smtp+plain://LOCALHOST").host == "LOCALHOST")
        #expect(throws: SMTPRelayError.credentialsNeedTLS) {
            try SMTPRelay(url: "smtp+plain://mailer@localhost", password: "x")
        }
        #expect(throws: SMTPRelayError.invalidCredentials(reason: "a user name in the URL but no password")) {
            try SMTPRelay(url: "smtp://mailer@relay.example")
        }
        #expect(throws: SMTPRelayError.invalidPort(0)) {
            try SMTPRelay(host: "relay.example", port: 0, security: .starttls)
        }
        #expect(throws: SMTPRelayError.invalidHost("relay example")) {
            try SMTPRelay(host: "relay example", port: 587, security: .starttls)
        }
        #expect(throws: SMTPRelayError.unreadableCAFile(path: "/nonexistent/ca.pem")) {
            try SMTPRelay(url: "smtp://relay.example", caFile: "/nonexistent/ca.pem")
        }
        #expect(throws: SMTPRelayError.invalidTimeout(name: "connect timeout")) {
            try SMTPRelay(host: "relay.example", port: 587, security: .starttls, connectTimeout: .zero)
        }
        #expect(throws: SMTPRelayError.invalidCredentials(reason: "a line break or NUL in the user name or password")) {
            try SMTPRelay.Credentials(username: "mailer", password: "x\r\nQUIT")
        }
        let error = SMTPRelayError.plaintextNotLoopback(host: "relay.example")
        #expect(error.description.contains("STARTTLS"))
    }

    @Test func thePasswordIsNotPrinted() throws {
        let credentials = try SMTPRelay.Credentials(username: "mailer", password: "s3cret")
        #expect(!"\(credentials)".contains("s3cret"))
        let relay = try SMTPRelay(url: "smtp://mailer@relay.example", password: "s3cret")
        #expect(!String(describing: relay).contains("s3cret"))
    }
}
