import CheckinCore
import CheckinServer
import Foundation
import Hummingbird
import HummingbirdTesting
import KioskCore
import PostgresTestSupport
import Testing
import WireAPI

/// The double-entry report on the organizer's pages: the dashboard counts it and links to it; the report lists
/// guest, both doors, both times and the gap; another tenant's report is the same 404 as a missing event.
@Suite(.dropsTestDatabases) struct DoubleEntryPageTests {
    @Test(arguments: RepositoryFactory.all)
    func theReportListsBothDoorsAndTheGap(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, guests) = try await h.event(guests: 3)
        try await h.organizer(of: tenant)
        try await h.app().test(.router) { client in
            let (cookie, _) = try await WebPageTests.signIn(client, email: "ann%40example.org")
            func page(_ path: String) async throws -> (HTTPResponse.Status, String) {
                try await client.execute(uri: path, method: .get, headers: [.cookie: cookie]) { response in
                    (response.status, String(buffer: response.body))
                }
            }
            let report = "/events/\(event.id.rawValue)/double-entries"
            #expect(try await page(report).1.contains("No double entries."))
            #expect(try await page("/events/\(event.id.rawValue)").1.contains("id=\"double-entries\">0</span>"))

            let north = try await client.enrol(h, event: event.id, door: "North")
            let south = try await client.enrol(h, event: event.id, door: "South")
            let t = h.clock.now().addingTimeInterval(-3600)
            // North's later scan arrives first, South's earlier one second: South's is the check-in.
            _ = try await client.upload(
                [north.item(1, guest: guests[0], at: t.addingTimeInterval(125))], event: event.id, as: north)
            _ = try await client.upload(
                [south.item(1, guest: guests[0], at: t, door: "South")], event: event.id, as: south)

            let (status, html) = try await page(report)
            #expect(status == .ok)
            #expect(html.contains("1 double entry."), "\(html)")
            let row = try #require(html.range(of: "<tbody>").map { String(html[$0.upperBound...]) })
            #expect(row.contains(guests[0].name))
            #expect(row.contains("South") && row.contains("North"))
            #expect(row.contains("2 min 5 s"), "\(row)")
            #expect(try await page("/events/\(event.id.rawValue)").1.contains("id=\"double-entries\">1</span>"))
        }
    }

    @Test(arguments: [RepositoryFactory.sqliteInMemory])
    func anotherTenantsReportIsNotFound(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, _, _) = try await h.event(guests: 1)
        let (_, other, _) = try await h.event(tenantName: "Other", guests: 1)
        try await h.organizer(of: tenant)
        try await h.app().test(.router) { client in
            let (cookie, _) = try await WebPageTests.signIn(client, email: "ann%40example.org")
            let status = try await client.execute(
                uri: "/events/\(other.id.rawValue)/double-entries", method: .get, headers: [.cookie: cookie]
            ) { $0.status }
            #expect(status == .notFound)
        }
    }
}
