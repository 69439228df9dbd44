import CheckinCore
import CheckinServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WireAPI

@testable import CheckinAdmin

/// Each event has its venue's IANA time zone, and its pages show every time in it: an organizer in Berlin watching
/// a door in New York reads the door's clock, named.
@Suite struct EventTimeZoneTests {
    @Test(arguments: RepositoryFactory.all)
    func eachEventsTimesAreShownInItsVenuesZone(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let tenant = try await h.admin.createTenant(name: "Acme")
        try await h.organizer(of: tenant)
        func event(_ name: String, zone: String?) async throws -> Event {
            try await h.admin.createEvent(
                EventInput(
                    name: name, startsAt: Harness.start, endsAt: Harness.start.addingTimeInterval(3600), timeZone: zone),
                tenant: tenant.id)
        }
        // 2026-12-01 17:00 UTC is noon in New York (EST) and 02:00 the next day in Tokyo.
        let york = try await event("York gala", zone: "America/New_York")
        let tokyo = try await event("Tokyo gala", zone: "Asia/Tokyo")
        #expect(try await h.repository.event(york.id)?.timeZone == "America/New_York", "stored")
        // An event made before events had a zone: the server's.
        let old = try await h.repository.createEvent(
            NewEvent(name: "Old gala", startsAt: Harness.start, endsAt: Harness.start.addingTimeInterval(3600)),
            tenant: tenant.id)
        #expect(old.timeZone == nil)
        let serverZone = TimeZone(identifier: "Pacific/Auckland")!
        let steps = PassIssuanceSteps(
            repository: h.repository, images: PassImageStore(directory: NSTemporaryDirectory() + UUID().uuidString),
            publicURL: "https://checkin.example.org", mailer: nil, timeZone: serverZone)
        try await h.app(issuance: steps).test(.router) { client in
            let (cookie, _) = try await WebPageTests.signIn(client, email: "ann%40example.org")
            func get(_ uri: String) async throws -> String {
                try await client.execute(uri: uri, method: .get, headers: [.cookie: cookie]) { String(buffer: $0.body) }
            }
            let events = try await get("/events")
            #expect(events.contains("2026-12-01 12:00 America/New_York"), "\(events)")
            #expect(events.contains("2026-12-02 02:00 Asia/Tokyo"), "\(events)")
            #expect(events.contains("2026-12-02 06:00 Pacific/Auckland"), "the old event, in the server's zone")
            let dashboard = try await get("/events/\(york.id.rawValue)/live")
            #expect(dashboard.contains("As of 12:00 (America/New_York)"), "\(dashboard)")
            let monitor = try await get("/events/\(tokyo.id.rawValue)/monitor")
            #expect(monitor.contains("As of 02:00 (Asia/Tokyo)"), "\(monitor)")
        }
    }

    /// An abbreviation or an offset does not follow the venue's daylight saving: refused, naming what to give.
    @Test func aZoneThatIsNotAnIANANameIsRefused() async throws {
        let h = try await Harness(.sqliteInMemory)
        let tenant = try await h.admin.createTenant(name: "Acme")
        for zone in ["CET+1", "Mars/Olympus", "", "+02:00"] {
            do {
                _ = try await h.admin.createEvent(
                    EventInput(
                        name: "Gala", startsAt: Harness.start, endsAt: Harness.start.addingTimeInterval(60),
                        timeZone: zone),
                    tenant: tenant.id)
                Issue.record("'\(zone)' was taken")
            } catch let failure as CheckinAdmin.Failure {
                #expect("\(failure)".contains("not an IANA zone name"), "\(failure)")
                #expect("\(failure)".contains("Europe/Berlin"), "\(failure)")
            }
        }
        #expect(try await h.repository.events(tenant: tenant.id).isEmpty, "nothing made")
        let berlin = try await h.admin.createEvent(
            EventInput(
                name: "Gala", startsAt: Harness.start, endsAt: Harness.start.addingTimeInterval(60),
                timeZone: "Europe/Berlin"),
            tenant: tenant.id)
        #expect(berlin.timeZone == "Europe/Berlin")
        let plain = try await h.admin.createEvent(
            EventInput(name: "Gala", startsAt: Harness.start, endsAt: Harness.start.addingTimeInterval(60)),
            tenant: tenant.id)
        #expect(plain.timeZone == TimeZone.current.identifier, "no zone given: the server's, recorded")
    }
}
