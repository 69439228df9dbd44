import CheckinCore
import CheckinServer
import DedicatedThreads
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing
import WireAPI

/// Body limits per route over real sockets: an unauthenticated route refuses a body announced too large with 413
/// before reading it, and a chunked one as soon as it passes the limit; either way the server closes the
/// connection instead of reading the rest.
@Suite struct BodyLimitTests {
    static let thirtyMegabytes = 30 * 1024 * 1024

    @Test func anOversizedRedeemIsRefusedBeforeItsBodyIsRead() async throws {
        let h = try await Harness(.sqliteInMemory)
        try await withTaskExecutorPreference(ThreadExecutor.testServers) {
            try await h.app().test(.live) { client in
                let port = try #require(client.port)
                let answer = try await DedicatedThread.run(named: "raw-connection") {
                    let connection = try RawConnection(port: port)
                    connection.send(
                        "POST /v1/enrolments/redeem HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                            + "Content-Length: \(Self.thirtyMegabytes)\r\n\r\n{\"code\":\"")
                    // 30 MB announced, a few bytes sent: the answer comes without waiting for the rest.
                    return connection.readUntilClosed(timeout: 10)
                }
                #expect(answer.text.hasPrefix("HTTP/1.1 413"), "\(answer.text)")
                #expect(answer.closed, "the connection stays open to read the rest")
            }
        }
    }

    @Test func aChunkedBodyIsCutOffAtTheRoutesLimit() async throws {
        let h = try await Harness(.sqliteInMemory)
        try await withTaskExecutorPreference(ThreadExecutor.testServers) {
            try await h.app().test(.live) { client in
                let port = try #require(client.port)
                let answer = try await DedicatedThread.run(named: "raw-connection") {
                    let connection = try RawConnection(port: port)
                    connection.send(
                        "POST /v1/enrolments/redeem HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                            + "Transfer-Encoding: chunked\r\n\r\n")
                    // 16 chunks of 1 KiB: past the 4 KiB limit of an unauthenticated route, and no end.
                    let chunk = "400\r\n" + String(repeating: "a", count: 1024) + "\r\n"
                    for _ in 0..<16 { connection.send(chunk) }
                    return connection.readUntilClosed(timeout: 10)
                }
                #expect(answer.text.hasPrefix("HTTP/1.1 413"), "\(answer.text)")
                #expect(answer.closed)
            }
        }
    }

    @Test func eachRouteHasItsLimit() async throws {
        let h = try await Harness(.sqliteInMemory)
        let (_, event, _) = try await h.event()
        let token = try await h.admin.newAdminToken()
        try await h.app().test(.router) { client in
            let device = try await client.enrol(h, event: event.id)
            // The device API: 64 KiB. A 100 KiB upload is refused before the token is even looked at.
            let upload = ByteBuffer(repeating: UInt8(ascii: " "), count: 100 * 1024)
            try await client.execute(
                uri: "/v1/events/\(event.id)/check-ins", method: .post, headers: device.headers, body: upload
            ) { #expect($0.status == .contentTooLarge) }
            try await client.execute(uri: "/v1/events/\(event.id)/check-ins", method: .post, body: upload) {
                #expect($0.status == .contentTooLarge)
            }
            // Sign-in: a few KiB.
            try await client.execute(
                uri: "/sign-in", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "email=" + String(repeating: "a", count: 8 * 1024))
            ) { #expect($0.status == .contentTooLarge) }
            // The admin's CSV import takes a large file (1 MiB here).
            var csv = "name,email\n"
            let filler = String(repeating: "x", count: 100)
            for index in 0..<6_000 { csv += "Guest \(index) \(filler),\n" }
            #expect(csv.utf8.count > 512 * 1024)
            try await client.execute(
                uri: "/v1/admin/events/\(event.id)/guests/import", method: .post,
                headers: [.authorization: "Bearer \(token)", .contentType: "text/csv"], body: ByteBuffer(string: csv)
            ) { response in #expect(response.status == .ok, "\(String(buffer: response.body))") }
        }
    }

    @Test func limitsFollowTheRoute() {
        let limits = EdgeLimits()
        #expect(limits.bodyLimit(method: "POST", path: "/v1/enrolments/redeem") == limits.unauthenticatedBody)
        #expect(limits.bodyLimit(method: "POST", path: "/sign-in") == limits.unauthenticatedBody)
        #expect(limits.bodyLimit(method: "POST", path: "/v1/webhooks/tenants/1/guests") == limits.webhookBody)
        #expect(limits.bodyLimit(method: "POST", path: "/v1/events/1/check-ins") == limits.apiBody)
        #expect(limits.bodyLimit(method: "POST", path: "/events/1/guests/import") == limits.importBody)
        #expect(limits.bodyLimit(method: "POST", path: "/events/1/guests/import/confirm") > limits.importBody / 3 * 4)
        #expect(limits.bodyLimit(method: "POST", path: "/v1/admin/events/1/guests/import") == limits.importBody)
        #expect(limits.bodyLimit(method: "POST", path: "/v1/admin/events/1/guests") == limits.apiBody)
        #expect(limits.unauthenticatedBody <= 8 * 1024 && limits.apiBody == 64 * 1024)
    }
}
