import CheckinServer
import Foundation
import PostgresTestSupport
import TestSupport
import Testing
import WireAPI

@testable import CheckinAdmin

/// `checkin-server serve` as a real process speaking HTTPS with a certificate from a CA made on the spot;
/// curl verifies it against that CA, as the kiosk will.
@Suite("checkin-server serve", .dropsTestDatabases)
struct ServeCommandTests {
    static func shell(_ script: String, in folder: String) async throws -> (status: Int32, out: String) {
        try await ChildProcess.shell(script, in: folder)
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")
                && FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "needs openssl and curl"))
    func servesHTTPSWithTheConfiguredCertificate() async throws {
        let folder = RepositoryFactory.temporaryFolder()
        try await TestCertificates.make(in: folder)
        _ = try await CommandLineTests.run(["create-tenant", "--name", "Acme"], in: folder)
        _ = try await CommandLineTests.run(
            [
                "create-event", "--tenant", "1", "--name", "Gala", "--starts", "2026-12-01T18:00:00Z",
                "--ends", "2036-12-01T23:00:00Z",
            ], in: folder)
        let code = try await CommandLineTests.run(["enrolment-code", "--event", "1"], in: folder).out
            .trimmingCharacters(in: .whitespacesAndNewlines)

        // Port 0: the system chooses a free one, which the server writes to its port file once it listens.
        let portFile = folder + "/port"
        let server = try ChildProcess.start(
            "checkin-server",
            [
                "serve", "--port", "0", "--port-file", portFile, "--tls-certificate", "server.pem", "--tls-key",
                "server.key",
            ], in: folder)
        defer { server.terminateWithoutWaiting() }
        var port = 0
        for _ in 0..<100 {  // up to 10 s for the server to listen
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8), let listening = Int(text.dropLast()) {
                port = listening
                break
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        try #require(port > 0, "checkin-server serve --port 0 wrote no port file")
        let body = #"{"code":"\#(code)","door":"North","kioskVersion":"1.0.0"}"#
        // The port file is written once the server listens: one request, no retry.
        let redeemed = try await Self.shell(
            """
            curl -sS --cacert ca.pem -H 'Content-Type: application/json' -d '\(body)' https://localhost:\(port)/v1/enrolments/redeem
            """, in: folder)
        #expect(redeemed.status == 0, "\(redeemed.out)")
        let answer = redeemed.out
        #expect(answer.contains("\"token\":\"kt_"), "\(answer)")
        // The database keeps the token's SHA-256, never the token.
        let token = try APICoding.decoder().decode(Enrolment.self, from: Data(answer.utf8)).token
        let bytes =
            try Data(contentsOf: URL(fileURLWithPath: folder + "/checkin.db"))
            + ((try? Data(contentsOf: URL(fileURLWithPath: folder + "/checkin.db-wal"))) ?? Data())
        let stored = String(decoding: bytes, as: UTF8.self)
        #expect(!stored.contains(token))
        #expect(stored.contains(Secrets.hash(token: token)))
        // The organizer lists the kiosk, revokes it, and its next request is refused and audited.
        let devices = try await CommandLineTests.run(["devices", "--tenant", "1"], in: folder)
        let deviceId = try APICoding.decoder().decode(Enrolment.self, from: Data(answer.utf8)).deviceId
        #expect(devices.out.hasPrefix(deviceId + "\tNorth\t1.0.0\t"), "\(devices.out)")
        await #expect(
            try CommandLineTests.run(["revoke-device", "--tenant", "1", "--device", deviceId], in: folder).status == 0)
        let refused = try await Self.shell(
            "curl -sS --cacert ca.pem -H 'Authorization: Bearer \(token)' https://localhost:\(port)/v1/events/1",
            in: folder)
        #expect(refused.out.contains("\"code\":\"unauthorized\""), "\(refused.out)")
        let audit = try await CommandLineTests.run(["audit", "--tenant", "1"], in: folder).out
        #expect(audit.contains("\"action\":\"revoked_token\""))
        #expect(audit.contains("\"action\":\"device_revoked\""))
        #expect(audit.contains("\"action\":\"enrolled\""))
        // Plain HTTP is not served on the TLS port.
        let plain = try await Self.shell("curl -sS -m 5 http://localhost:\(port)/v1/events/1", in: folder)
        #expect(!plain.out.contains("not_found") && !plain.out.contains("unauthorized"))
    }

    /// Listening on every interface without --public-url, the server's links would name the wildcard address: it
    /// says so when it starts and names the option; with --public-url, or on its loopback default, it does not.
    @Test func aWildcardAddressWithoutAPublicURLIsWarnedAbout() async throws {
        let folder = RepositoryFactory.temporaryFolder()
        func startupLog(_ options: String) async throws -> String {
            let r = try await Self.shell(
                """
                rm -f port
                '\(ChildProcess.productsFolder)/checkin-server' serve --port 0 --port-file port \(options) >log 2>&1 &
                server=$!
                for _ in $(seq 300); do [ -s port ] && break; kill -0 $server 2>/dev/null || break; sleep 0.1; done
                kill $server; wait $server; cat log
                """, in: folder)
            return r.out
        }
        let wildcard = try await startupLog("--host 0.0.0.0")
        #expect(wildcard.contains("no --public-url") && wildcard.contains("http://0.0.0.0"), "\(wildcard)")
        #expect(wildcard.contains("give --public-url"))
        #expect(
            !(try await startupLog("--host 0.0.0.0 --public-url https://checkin.example.org")).contains(
                "no --public-url"))
        #expect(!(try await startupLog("")).contains("no --public-url"))
    }
}
