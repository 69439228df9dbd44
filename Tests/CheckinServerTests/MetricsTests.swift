import CheckinCore
import CheckinServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PassFormat
import Testing
import WireAPI

/// `GET /metrics`: Prometheus text for a scraper with the metrics token, nothing for anyone else, and no route at
/// all on a server without a token.
@Suite struct MetricsTests {
    static let token = "metrics-token-0123456789abcdef"

    @Test func aScraperWithTheTokenReadsCheckInsLatencyAndRequests() async throws {
        let h = try await Harness(.sqliteInMemory)
        let (_, event, guests) = try await h.event(guests: 3)
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.metrics = ServerMetrics(token: Self.token)
        let app = try buildApplication(configuration: configuration, repository: h.repository, clock: h.clock)
        // A pass issued as far as this server can without a relay: sign, render, store, then the e-mail waits.
        _ = try await h.repository.addGuests(
            [NewGuest(name: "Zoë", email: "zoe@example.org")], event: event.id, at: h.clock.now())
        var worker = PassIssuanceTests.worker(
            h, PassIssuanceTests.steps(h, folder: RepositoryFactory.temporaryFolder()))
        worker.metrics = configuration.metrics
        #expect(try await worker.runDue() == 4)
        try await app.test(.router) { client in
            let device = try await client.enrol(h, event: event.id)
            // Two scans made 90 s and 30 min before they arrive, and one of them again from another door.
            let items = [
                device.item(1, guest: guests[0], at: Harness.start.addingTimeInterval(-90)),
                device.item(2, guest: guests[1], at: Harness.start.addingTimeInterval(-1800)),
                device.item(3, guest: guests[0], at: Harness.start.addingTimeInterval(-60), door: "South"),
            ]
            _ = try await client.upload(items, event: event.id, as: device)
            // Devices by state: one heard from just now, one enrolled and never heard from, one revoked.
            let report = Heartbeat(
                door: "North", kioskVersion: "1.0.0", pending: 0, oldestPendingAt: nil, rosterCursor: nil,
                rosterFetchedAt: nil, camera: "replay", clockOffsetMs: nil, deviceTime: h.clock.now())
            try await client.execute(
                uri: "/v1/devices/heartbeat", method: .post,
                headers: device.headers + [.contentType: "application/json"], body: Harness.json(report)
            ) { #expect($0.status == .ok) }
            _ = try await client.enrol(h, event: event.id, door: "South")
            let lost = try await client.enrol(h, event: event.id, door: "East")
            try await h.repository.revokeDevice(lost.id, tenant: TenantID(device.enrolment.tenantId), at: h.clock.now())

            // A method HTTP does not define is counted as "other": a client cannot make series of its own.
            _ = try await client.execute(uri: "/v1/anything", method: HTTPRequest.Method("BREW-COFFEE")!) { $0.status }
            for authorization in [nil, "Bearer wrong-token-0123456789abcdef", Self.token] {
                let headers: HTTPFields = authorization.map { [.authorization: $0] } ?? [:]
                try await client.execute(uri: "/metrics", method: .get, headers: headers) { response in
                    #expect(response.status == .unauthorized)
                    #expect(!String(buffer: response.body).contains("checkin_"))
                }
            }
            let text = try await client.execute(
                uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(Self.token)"]
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
                return String(buffer: response.body)
            }
            #expect(text.contains(#"checkin_checkins_ingested_total{outcome="applied"} 2"#), "\(text)")
            #expect(text.contains(#"checkin_checkins_ingested_total{outcome="superseded"} 1"#), "\(text)")
            // The applied two: one within 5 min of its scan, both within an hour.
            #expect(text.contains(#"checkin_sync_latency_seconds_bucket{le="60.0"} 0"#), "\(text)")
            #expect(text.contains(#"checkin_sync_latency_seconds_bucket{le="300.0"} 1"#), "\(text)")
            #expect(text.contains(#"checkin_sync_latency_seconds_bucket{le="3600.0"} 2"#), "\(text)")
            #expect(text.contains("checkin_sync_latency_seconds_count 2"), "\(text)")
            #expect(text.contains(#"checkin_issuance_steps_total{now_at="render",failed="no"} 1"#), "\(text)")
            #expect(text.contains(#"checkin_issuance_steps_total{now_at="email",failed="yes"} 1"#), "\(text)")
            // Requests by their route, not their path (no id in a label).
            #expect(
                text.contains(
                    #"checkin_http_request_duration_seconds_count{method="POST",route="/v1/events/{eventId}/check-ins",status="200"} 1"#
                ), "\(text)")
            #expect(!text.contains("/v1/events/\(event.id.rawValue)/"))
            #expect(text.contains(#"method="other""#) && !text.contains("BREW"), "\(text)")
            for (state, count) in [("live", 1), ("never_seen", 1), ("revoked", 1), ("stale", 0), ("offline", 0)] {
                #expect(text.contains(#"checkin_devices{state="\#(state)"} \#(count)"#), "\(state): \(text)")
            }
            // Counted at the scrape, by the monitor's rule: 31 minutes later the live one is offline.
            h.clock.advance(by: 31 * 60)
            let later = try await client.execute(
                uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(Self.token)"]
            ) { String(buffer: $0.body) }
            #expect(
                later.contains(#"checkin_devices{state="live"} 0"#)
                    && later.contains(#"checkin_devices{state="offline"} 1"#))
        }
    }

    /// The devices the scrape counts are every tenant's, on each store.
    @Test(arguments: RepositoryFactory.all)
    func everyTenantsDevicesAreCounted(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, first, _) = try await h.event(guests: 0)
        let (_, second, _) = try await h.event(guests: 0)
        let app = try buildApplication(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0), repository: h.repository, clock: h.clock)
        try await app.test(.router) { client in
            let a = try await client.enrol(h, event: first.id)
            let b = try await client.enrol(h, event: second.id)
            #expect(a.enrolment.tenantId != b.enrolment.tenantId)
            #expect(Set(try await h.repository.allDevices().map(\.id)) == [a.id, b.id])
        }
    }

    @Test func aServerWithoutAMetricsTokenHasNoMetrics() async throws {
        let h = try await Harness(.sqliteInMemory)
        try await h.app().test(.router) { client in
            try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(Self.token)"]) {
                #expect($0.status == .notFound)
            }
        }
    }
}
