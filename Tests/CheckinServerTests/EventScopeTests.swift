import CheckinCore
import CheckinServer
import Foundation
import Hummingbird
import HummingbirdTesting
import KioskCore
import PostgresTestSupport
import Testing
import WireAPI

/// A device token reaches only the event it was enrolled for; the scans it uploads are corrected by a bounded
/// clock offset.
@Suite("Device tokens scoped to events", .dropsTestDatabases)
struct EventScopeTests {
    /// The finding: a kiosk enrolled for event 1 read event 2's roster (same tenant).
    @Test(arguments: RepositoryFactory.all)
    func anotherEventOfTheTenantAnswersLikeNothingAndIsAudited(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, first, guests) = try await h.event()
        let second = try await h.admin.createEvent(
            EventInput(name: "After party", startsAt: Harness.start, endsAt: Harness.start.addingTimeInterval(3600)),
            tenant: tenant.id)
        _ = try await h.repository.addGuests([NewGuest(name: "Secret Guest")], event: second.id, at: h.clock.now())
        try await h.app().test(.router) { client in
            let kiosk = try await client.enrol(h, event: first.id)
            #expect(kiosk.enrolment.events.map(\.id) == [first.id.rawValue])
            _ = try await client.roster("", event: first.id, as: kiosk)

            var bodies: [String] = []
            for uri in ["/v1/events/\(second.id)", "/v1/events/\(second.id)/roster", "/v1/events/999999/roster"] {
                try await client.execute(uri: uri, method: .get, headers: kiosk.headers) { response throws in
                    #expect(response.status == .notFound, "\(uri)")
                    bodies.append(String(buffer: response.body))
                }
            }
            try await client.execute(
                uri: "/v1/events/\(second.id)/check-ins", method: .post, headers: kiosk.headers,
                body: Harness.json(CheckInBatch(items: [kiosk.item(1, guest: guests[0], at: h.clock.now())]))
            ) { response throws in
                #expect(response.status == .notFound)
                bodies.append(String(buffer: response.body))
            }
            #expect(Set(bodies).count == 1)
            #expect(!bodies.joined().contains("Secret Guest"))
            let audit = try await h.repository.auditEntries(tenant: tenant.id, limit: 50)
            #expect(audit.filter { $0.action == "other_event" && $0.device == kiosk.id }.count == 3)
            #expect(try await h.repository.checkInEvents(event: second.id).isEmpty)

            // The heartbeat names only its own event.
            let answer = try await client.execute(
                uri: "/v1/devices/heartbeat", method: .post, headers: kiosk.headers,
                body: Harness.json(
                    Heartbeat(
                        door: "North", kioskVersion: "1.0.0", pending: 0, oldestPendingAt: nil, rosterCursor: nil,
                        rosterFetchedAt: nil, camera: "ok", clockOffsetMs: nil, deviceTime: h.clock.now()))
            ) { response throws in
                #expect(response.status == .ok)
                return try Harness.decode(HeartbeatAnswer.self, response.body)
            }
            #expect(answer.events.map(\.id) == [first.id.rawValue])

            // A kiosk enrolled for the second event reads it.
            let other = try await client.enrol(h, event: second.id)
            #expect(try await client.roster("", event: second.id, as: other).guests.count == 1)
        }
    }

    /// An offset beyond a day either way is ignored: the scan is corrected as if it carried none, so a kiosk
    /// cannot move its scans to any time it likes (here: a week early, to win the earliest-scan rule).
    @Test(arguments: RepositoryFactory.all)
    func anAbsurdClockOffsetIsIgnored(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, guests) = try await h.event()
        try await h.app().test(.router) { client in
            let kiosk = try await client.enrol(h, event: event.id)
            let now = h.clock.now()
            let week: Int64 = -7 * 24 * 3600 * 1000
            let hour: Int64 = -3600 * 1000
            _ = try await client.upload(
                [
                    kiosk.item(1, guest: guests[0], at: now, offsetMs: week),
                    kiosk.item(2, guest: guests[1], at: now, offsetMs: hour),
                ], event: event.id, as: kiosk)
            let checkIns = try await h.repository.checkIns(event: event.id)
            #expect(checkIns.first { $0.guest == guests[0].id }?.correctedTime == now)
            #expect(checkIns.first { $0.guest == guests[1].id }?.correctedTime == now.addingTimeInterval(-3600))
        }
        #expect(ClockOffsetBound.accepted(ClockOffsetBound.maximumMs) == ClockOffsetBound.maximumMs)
        #expect(ClockOffsetBound.accepted(-ClockOffsetBound.maximumMs - 1) == nil)
        #expect(ClockOffsetBound.accepted(nil) == nil)
    }

    /// A scan whose corrected time is outside the event's window (from 2 h before its start until it closes) is
    /// taken (early doors) and flagged in the export and on the dashboard.
    @Test(arguments: RepositoryFactory.all)
    func scansOutsideTheEventsWindowAreFlaggedNotRefused(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, guests) = try await h.event()
        try await h.app().test(.router) { client in
            let kiosk = try await client.enrol(h, event: event.id)
            let result = try await client.upload(
                [
                    kiosk.item(1, guest: guests[0], at: event.startsAt.addingTimeInterval(-3 * 3600)),
                    kiosk.item(2, guest: guests[1], at: event.startsAt.addingTimeInterval(-3600)),
                    kiosk.item(3, guest: guests[2], at: event.startsAt.addingTimeInterval(3600)),
                ], event: event.id, as: kiosk)
            #expect(result.outcomes.map(\.outcome) == [.applied, .applied, .applied])
        }
        let lines = try await h.admin.exportLines(event: event.id).map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        func flagged(_ record: String, _ guest: Guest) -> Bool? {
            lines.first { $0["record"] as? String == record && $0["guestId"] as? String == guest.id.text }?[
                "outsideWindow"] as? Bool
        }
        for record in ["check_in", "check_in_event"] {
            #expect(flagged(record, guests[0]) == true)
            #expect(flagged(record, guests[1]) == nil)
            #expect(flagged(record, guests[2]) == nil)
        }
        #expect(event.isOutsideWindow(event.closesAt.addingTimeInterval(1)))
        #expect(!event.isOutsideWindow(event.closesAt))
    }
}
