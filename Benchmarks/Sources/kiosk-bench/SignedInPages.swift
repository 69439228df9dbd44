import ArgumentParser
import AsyncHTTPClient
import CheckinAdmin
import CheckinCore
import CheckinServer
import Foundation
import NIOCore
import PassFormat

/// The organizer's pages of a benchmark server as a signed-in organizer fetches them over loopback HTTP: the
/// session is made straight in the database, each page is timed request by request.
struct SignedInPages {
    let baseURL: String
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    private let token: String

    /// Signs an organizer of `tenant` in (their session written in `repository`).
    init(baseURL: String, repository: any CheckinRepository, tenant: TenantID, now: Date) async throws {
        self.baseURL = baseURL
        let organizer = try await repository.createOrganizer(
            NewOrganizer(tenant: tenant, email: "bench@example.org", name: "Bench", passwordHash: "unused"), at: now)
        token = "ws_bench_" + UUID().uuidString
        try await repository.createWebSession(
            WebSession(
                tokenHash: Secrets.hash(token: token), organizer: organizer.id, csrfToken: "csrf", createdAt: now,
                expiresAt: now.addingTimeInterval(3600)))
    }

    /// `requests` timed GETs of `path` (ms each) after `warmUp` untimed ones, and the answer's size in bytes.
    func timings(
        _ path: String, requests: Int, warmUp: Int, timeout: TimeAmount = .seconds(10),
        maximumBytes: Int = 16 * 1024 * 1024
    ) async throws -> (times: [Double], bytes: Int) {
        var times: [Double] = []
        var bytes = 0
        for round in 0..<(requests + warmUp) {
            var request = HTTPClientRequest(url: baseURL + path)
            request.headers.add(name: "Cookie", value: "__Host-checkin_session=\(token)")
            let start = ContinuousClock.now
            let response = try await client.execute(request, timeout: timeout)
            let body = try await response.body.collect(upTo: maximumBytes)
            let took = Stopwatch.seconds(ContinuousClock.now - start) * 1000
            guard response.status == .ok else {
                throw ValidationError("GET \(path) answered \(response.status.code)")
            }
            if round >= warmUp { times.append(took) }
            bytes = body.readableBytes
        }
        return (times, bytes)
    }

    func shutdown() async throws { try await client.shutdown() }
}
