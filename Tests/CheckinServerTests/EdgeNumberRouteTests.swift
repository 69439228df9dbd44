import CheckinCore
import CheckinServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WireAPI

/// Numbers at the edges of their types from an enrolled device, on every store, in process: a trap would end
/// the test process. Before, a PostgreSQL cursor of `x1:<Int64.max>:<Int64.max>` trapped (`xid + 1`), on the
/// roster route and on every monitor page once a heartbeat carried it; an `arrived` of Int64.max was stored and
/// every later sum of the event's arrivals overflowed.
@Suite("API routes: numbers at the edges of their types", .dropsTestDatabases)
struct EdgeNumberRouteTests {
    static let maxima = "9223372036854775807:9223372036854775807"

    @Test(arguments: RepositoryFactory.all)
    func cursorsAtTheEdgeOfInt64AreBadCursors(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, _) = try await h.event()
        try await h.app().test(.router) { client in
            let device = try await client.enrol(h, event: event.id)
            for query in [
                "changesSince=x1:\(Self.maxima)", "page=p1:\(Self.maxima):AAAAAAAAAAAAAAAA",
                "changesSince=-9223372036854775808", "page=9223372036854775807",
            ] {
                try await client.execute(
                    uri: "/v1/events/\(event.id)/roster?\(query)", method: .get, headers: device.headers
                ) { response in #expect(response.status == .badRequest, "\(query)") }
            }
            // Kept from a heartbeat, the cursor is read on every monitor page: a bad cursor there, no trap.
            let beat = Heartbeat(
                door: "North", kioskVersion: "1.0.0", pending: 0, oldestPendingAt: nil,
                rosterCursor: "x1:\(Self.maxima)", rosterFetchedAt: nil, camera: "ok", clockOffsetMs: nil,
                deviceTime: h.clock.now())
            try await client.execute(
                uri: "/v1/devices/heartbeat", method: .post, headers: device.headers, body: Harness.json(beat)
            ) { response in #expect(response.status == .ok) }
            let behind = try await h.repository.rosterChangesBehind(
                event: event.id, cursors: ["x1:\(Self.maxima)", "c1:9223372036854775807"])
            #expect(behind["x1:\(Self.maxima)"] == nil)
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func aHeartbeatOutsideItsBoundsIsRefused(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, _) = try await h.event()
        try await h.app().test(.router) { client in
            let device = try await client.enrol(h, event: event.id)
            func beat(pending: Int = 0, cursor: String? = nil, door: String = "North") -> Heartbeat {
                Heartbeat(
                    door: door, kioskVersion: "1.0.0", pending: pending, oldestPendingAt: nil, rosterCursor: cursor,
                    rosterFetchedAt: nil, camera: "ok", clockOffsetMs: Int64.min, deviceTime: h.clock.now())
            }
            for (report, named) in [
                (beat(pending: -1), "pending"), (beat(pending: .max), "pending"),
                (beat(cursor: String(repeating: "9", count: 5000)), "rosterCursor"),
                (beat(door: String(repeating: "d", count: 65)), "door"),
            ] {
                try await client.execute(
                    uri: "/v1/devices/heartbeat", method: .post, headers: device.headers, body: Harness.json(report)
                ) { response throws in
                    #expect(response.status == .badRequest)
                    #expect(try Harness.decode(APIError.self, response.body).message.contains(named))
                }
            }
            // An offset of Int64.min is ignored as any beyond a day is (ClockOffsetBound), not refused.
            try await client.execute(
                uri: "/v1/devices/heartbeat", method: .post, headers: device.headers, body: Harness.json(beat())
            ) { response in #expect(response.status == .ok) }
        }
    }

    @Test(arguments: RepositoryFactory.all)
    func anArrivedCountOutsideAPartyIsRejectedAndTheCountsStillAddUp(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, guests) = try await h.event()
        try await h.app().test(.router) { client in
            let device = try await client.enrol(h, event: event.id)
            var items = [device.item(1, guest: guests[0], at: h.clock.now())]
            for (sequence, arrived) in [(2, Int.max), (3, -1), (4, Int.min)] {
                var item = device.item(Int64(sequence), guest: guests[1], at: h.clock.now())
                item.arrived = arrived
                items.append(item)
            }
            let answer = try await client.upload(items, event: event.id, as: device)
            #expect(answer.outcomes.map(\.outcome) == [.applied, .rejected, .rejected, .rejected])
            #expect(answer.outcomes.dropFirst().allSatisfy { $0.reason == "arrived_out_of_range" })
            let counts = try await h.repository.counts(event: event.id)
            #expect(counts.checkedIn == 1 && counts.arrivedPeople == 1, "\(counts)")
        }
    }
}
