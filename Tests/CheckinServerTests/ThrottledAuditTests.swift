import CheckinCore
import CheckinServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WireAPI

/// Requests anyone may send, refused, write a few audit rows a minute, not one each: 200 unsigned webhooks made
/// 200 `webhook_refused` rows, and a revoked token a row per request.
@Suite("Audit rows of refused requests, throttled", .dropsTestDatabases)
struct ThrottledAuditTests {
    static func rows(_ action: String, _ h: Harness) async throws -> Int {
        try await h.repository.auditEntries(tenant: nil, limit: 10_000).filter { $0.action == action }.count
    }

    @Test(arguments: [RepositoryFactory.sqliteInMemory, RepositoryFactory.postgres])
    func unsignedWebhooksWriteAFewRowsAMinute(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, _, _) = try await h.event()
        let perMinute = EdgeLimits().unauthenticatedAuditPerMinute
        try await h.app().test(.router) { client in
            func send() async throws {
                try await client.execute(
                    uri: "/v1/webhooks/tenants/\(tenant.id.rawValue)/guests", method: .post,
                    headers: [.contentType: "application/json"], body: ByteBuffer(string: "{}")
                ) { response in #expect(response.status == .unauthorized) }
            }
            for _ in 0..<(3 * perMinute) { try await send() }
            #expect(try await Self.rows("webhook_refused", h) == perMinute)
            h.clock.advance(by: 61)
            try await send()
            #expect(try await Self.rows("webhook_refused", h) == perMinute + 1)
        }
    }

    @Test(arguments: [RepositoryFactory.sqliteInMemory, RepositoryFactory.postgres])
    func aRevokedTokenWritesAFewRowsAMinute(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event()
        let perMinute = EdgeLimits().unauthenticatedAuditPerMinute
        try await h.app().test(.router) { client in
            let device = try await client.enrol(h, event: event.id)
            try await h.admin.revokeDevice(device.id, tenant: tenant.id)
            for _ in 0..<(3 * perMinute) {
                try await client.execute(uri: "/v1/events/\(event.id)", method: .get, headers: device.headers) {
                    response in #expect(response.status == .unauthorized)
                }
            }
            #expect(try await Self.rows("revoked_token", h) == perMinute)
        }
    }
}
