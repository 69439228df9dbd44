import CheckinCore
import CheckinServer
import Foundation
import Hummingbird
import HummingbirdTesting
import KioskCore
import PostgresTestSupport
import Testing
import WireAPI

/// The event dashboard in process, on every repository: counts against expected, the server-drawn chart, the
/// last check-ins newest first, and an arrival alert highlighted.
@Suite(.dropsTestDatabases) struct DashboardPageTests {
    @Test(arguments: RepositoryFactory.all)
    func theDashboardCountsChartsAndHighlightsAlerts(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, plain) = try await h.event(guests: 4)
        let host = try await h.repository.addGuests(
            [NewGuest(name: "Hedy Lamarr", partySize: 2, arrivalAlert: "Tell the host <now>")], event: event.id,
            at: h.clock.now())[0]
        try await h.organizer(of: tenant)
        try await h.app().test(.router) { client in
            let (cookie, _) = try await WebPageTests.signIn(client, email: "ann%40example.org")
            func page() async throws -> String {
                try await client.execute(uri: "/events/\(event.id.rawValue)", method: .get, headers: [.cookie: cookie])
                {
                    response in
                    #expect(response.status == .ok)
                    return String(buffer: response.body)
                }
            }
            #expect(try await page().contains("No check-ins yet"))

            let north = try await client.enrol(h, event: event.id, door: "North")
            let south = try await client.enrol(h, event: event.id, door: "South")
            let t = h.clock.now()
            _ = try await client.upload(
                [north.item(1, guest: plain[0], at: t), north.item(2, guest: plain[1], at: t.addingTimeInterval(60))],
                event: event.id, as: north)
            _ = try await client.upload(
                [
                    south.item(1, guest: plain[2], at: t.addingTimeInterval(400), door: "South"),
                    south.item(2, guest: host, at: t.addingTimeInterval(700), door: "South"),
                ], event: event.id, as: south)
            h.clock.advance(by: 15 * 60)

            let html = try await page()
            #expect(html.contains("<span class=\"big\" id=\"checked-in\">4</span> of 5 guests"), "\(html)")
            #expect(html.contains("id=\"arrived-people\">4</span> of 6 people"))
            // Three 5-minute bars: two at North, one at South, one at South.
            #expect(html.components(separatedBy: "<rect x=").count - 1 == 3 + 2, "bars and two legend keys")
            #expect(html.contains("<title>North: 2 at") && html.contains("<title>South: 1 at"))
            // Time marks under the bars, readable on a phone (the chart is 480 units wide, its labels 14).
            let marks = html.components(separatedBy: "font-size=\"14\" text-anchor=\"start\"").count - 1
            #expect(marks >= 2, "the first bar and at least one more mark or a door: \(marks)")

            // The last check-ins, newest first, the alerted guest highlighted and the alert escaped.
            let recent = try #require(html.range(of: "id=\"recent\""))
            let names = ["Hedy Lamarr", plain[2].name, plain[1].name, plain[0].name]
            let positions = names.map { html.range(of: $0, range: recent.upperBound..<html.endIndex)?.lowerBound }
            #expect(positions.allSatisfy { $0 != nil } && positions.map { $0! } == positions.map { $0! }.sorted())
            #expect(html.contains("<tr class=\"alerted\"><th scope=\"row\">Hedy Lamarr</th>"))
            #expect(html.contains("Tell the host &lt;now&gt;") && !html.contains("<now>"))

            // After half an hour the alert is no longer news.
            h.clock.advance(by: 30 * 60)
            #expect(try await !page().contains("id=\"alerts\""))
        }
    }

    /// The no-shows page lists the active guests not checked in, with their phone and e-mail to reach them, and
    /// leaves out the cancelled and those who came; before the event starts it says "Not arrived yet".
    @Test func noShowsAreTheActiveGuestsNotCheckedIn() async throws {
        let h = try await Harness(.sqliteInMemory)
        let (tenant, event, _) = try await h.event(guests: 0)
        try await h.organizer(of: tenant)
        let guests = try await h.repository.addGuests(
            [
                NewGuest(name: "Came Early"), NewGuest(name: "Called Off"),
                NewGuest(name: "Still Out", phone: "+1 555 0199", partySize: 3), NewGuest(name: "Also Out"),
            ], event: event.id, at: h.clock.now())
        _ = try await h.repository.cancelGuest(guests[1].id, event: event.id, at: h.clock.now())
        try await h.app().test(.router) { client in
            let (cookie, _) = try await WebPageTests.signIn(client, email: "ann%40example.org")
            let north = try await client.enrol(h, event: event.id, door: "North")
            _ = try await client.upload(
                [north.item(1, guest: guests[0], at: h.clock.now())], event: event.id, as: north)
            func page() async throws -> String {
                try await client.execute(
                    uri: "/events/\(event.id.rawValue)/no-shows", method: .get, headers: [.cookie: cookie]
                ) { String(buffer: $0.body) }
            }
            h.clock.advance(by: -3600)
            #expect(try await page().contains("<h1>Not arrived yet"))
            h.clock.advance(by: 2 * 3600)
            let html = try await page()
            #expect(html.contains("<h1>No-shows") && html.contains("2 guests (4 people) not checked in"), "\(html)")
            #expect(html.contains("Still Out") && html.contains("Also Out") && html.contains("+1 555 0199"))
            #expect(!html.contains("Came Early") && !html.contains("Called Off"))
        }
    }

    /// Two hours of arrivals: the chart marks several times along its axis (it labelled only its first bar).
    @Test func theChartMarksTimesAlongTwoHours() async throws {
        let h = try await Harness(.sqliteInMemory)
        let (tenant, event, guests) = try await h.event(guests: 13)
        try await h.organizer(of: tenant)
        try await h.app().test(.router) { client in
            let (cookie, _) = try await WebPageTests.signIn(client, email: "ann%40example.org")
            let north = try await client.enrol(h, event: event.id, door: "North")
            let t = h.clock.now()
            for (index, guest) in guests.enumerated() {
                _ = try await client.upload(
                    [north.item(Int64(index + 1), guest: guest, at: t.addingTimeInterval(Double(index) * 600))],
                    event: event.id, as: north)
            }
            h.clock.advance(by: 125 * 60)
            let html = try await client.execute(
                uri: "/events/\(event.id.rawValue)", method: .get, headers: [.cookie: cookie]
            ) { String(buffer: $0.body) }
            let chart = try #require(html.range(of: "<svg").map { String(html[$0.lowerBound...]) })
            let labels: [String] = chart.components(separatedBy: "text-anchor=\"start\" fill=\"#14181f\">")
            let texts: [String] = labels.dropFirst().map { String($0.prefix(5)) }
            let times = texts.filter { (text: String) -> Bool in Array(text).count == 5 && Array(text)[2] == ":" }
            #expect(times.count >= 4 && times.count <= 6, "\(times)")
        }
    }

    @Test func theHistogramBucketsByFiveMinutesAndDoor() {
        let t = Date(timeIntervalSince1970: 1_800_000_000)  // a multiple of 5 minutes
        let histogram = ArrivalHistogram(
            checkIns: [("North", t + 10), ("South", t + 20), ("North", t + 299), ("North", t + 300)], now: t + 900)
        #expect(histogram.start == t)
        #expect(histogram.doors == ["North", "South"])
        #expect(histogram.counts == [[2, 1], [1, 0], [0, 0], [0, 0]])
        #expect(histogram.peak == 3)
        #expect(histogram.bucket == 300)
        // A longer event in wider bars, all of it: 24 hours in 30-minute bars, the first check-in in the first.
        let long = ArrivalHistogram(checkIns: [("North", t), ("South", t + 24 * 3600 - 1)], now: t + 24 * 3600)
        #expect(long.bucket == 1800 && long.counts.count == 49 && long.start == t)
        #expect(long.counts.first == [1, 0] && long.counts.last == [0, 0] && long.counts[47] == [0, 1])
        let eightHours = ArrivalHistogram(checkIns: [("North", t)], now: t + 8 * 3600 - 1)
        #expect(eightHours.bucket == 300 && eightHours.counts.count == 96)
        #expect(ArrivalHistogram(checkIns: [], now: t).counts.isEmpty)
    }
}
