import CheckinCore
import CheckinSQLite
import EntryRules
import Foundation
import Hummingbird
import HummingbirdTesting
import PassFormat
import PostgresNIO
import PostgresTestSupport
import TestSupport
import Testing
import WireAPI

@testable import CheckinAdmin
@testable import CheckinPostgres

/// Check-in lists and gates on the server (issue 51), on every store.
@Suite("Check-in lists", .dropsTestDatabases)
struct CheckInListTests {
    /// Every setup made before lists keeps working: a new event has its one list, admitting every ticket type.
    @Test(arguments: RepositoryFactory.all)
    func aNewEventHasOneListForEveryTicketType(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, _) = try await h.event(guests: 0)
        let lists = try await h.admin.lists(event: event.id)
        #expect(lists.map(\.name) == [CheckInList.firstName])
        #expect(lists.first?.rules == .everyone)
        #expect(lists.first?.version == 1)
        #expect(lists.first?.event == event.id)
    }

    @Test(arguments: RepositoryFactory.all)
    func listsAreMadeChangedAndNamedOncePerEvent(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event(guests: 0)
        let opens = Harness.start.addingTimeInterval(3600)
        let vip = try await h.admin.createList(
            ListInput(
                name: " VIP lounge ", ticketTypes: ["VIP", "Press"], opensAt: opens, maxPerDay: 1,
                allowsReentry: false, capacity: 80),
            event: event.id)
        #expect(vip.name == "VIP lounge")
        #expect(vip.rules.ticketTypes == ["VIP", "Press"])
        #expect(vip.rules.opensAt == opens)
        #expect(vip.rules.maximumEntriesPerDay == 1)
        #expect(!vip.rules.allowsReentry)
        #expect(vip.capacity == 80)
        #expect(try await h.repository.list(vip.id) == vip)
        #expect(try await h.admin.lists(event: event.id).map(\.name) == [CheckInList.firstName, "VIP lounge"])

        await #expect(throws: CheckinAdmin.Failure.self) {
            _ = try await h.admin.createList(ListInput(name: "VIP lounge"), event: event.id)
        }
        let changed = try await h.admin.updateList(
            vip.id, ListInput(name: "VIP lounge", ticketTypes: ["VIP"]), event: event.id)
        #expect(changed.version == 2)
        #expect(changed.rules == ListRules(ticketTypes: ["VIP"]))
        #expect(changed.capacity == nil)
        // Renaming onto another list's name is refused; another event's list is not this event's.
        await #expect(throws: CheckinAdmin.Failure.self) {
            _ = try await h.admin.updateList(vip.id, ListInput(name: CheckInList.firstName), event: event.id)
        }
        let other = try await h.admin.createEvent(
            EventInput(name: "Other", startsAt: Harness.start, endsAt: Harness.start.addingTimeInterval(3600)),
            tenant: tenant.id)
        await #expect(throws: CheckinAdmin.Failure.notFound("check-in list \(vip.id) of event \(other.id)")) {
            _ = try await h.admin.updateList(vip.id, ListInput(name: "Mine"), event: other.id)
        }
        // The same name in another event is another list.
        let theirs = try await h.admin.createList(ListInput(name: "VIP lounge"), event: other.id)
        #expect(theirs.id != vip.id)
        #expect(try await h.admin.lists(event: other.id).count == 2)
    }

    /// Numbers from outside are held to what a venue could mean, with a sentence naming the field.
    @Test func aBadListIsRefusedNamingWhatIsWrong() async throws {
        let h = try await Harness(.sqliteInMemory)
        let (_, event, _) = try await h.event(guests: 0)
        let start = Harness.start
        let bad: [(ListInput, String)] = [
            (ListInput(name: "  "), "name"),
            (ListInput(name: String(repeating: "x", count: 81)), "name"),
            (ListInput(name: "A", maxEntries: 0), "entries in all"),
            (ListInput(name: "A", maxEntries: Int.max), "entries in all"),
            (ListInput(name: "A", maxPerDay: -1), "entries per day"),
            (ListInput(name: "A", minMinutesBetweenEntries: Int.min), "minutes between entries"),
            (ListInput(name: "A", capacity: 0), "capacity"),
            (ListInput(name: "A", opensAt: start, closesAt: start), "open before it closes"),
            (ListInput(name: "A", ticketTypes: ["VIP", " "]), "ticket type"),
        ]
        for (input, words) in bad {
            do {
                _ = try await h.admin.createList(input, event: event.id)
                Issue.record("accepted \(input)")
            } catch let failure as CheckinAdmin.Failure {
                #expect(failure.description.contains(words), "\(failure)")
            }
        }
        #expect(try await h.admin.lists(event: event.id).count == 1)
    }

    /// The rules as stored and sent: the same rules always make the same bytes, and read back unchanged.
    @Test func rulesMakeTheSameJSONWhateverTheOrderOfTheirTypes() throws {
        let opens = Date(timeIntervalSince1970: 1_796_000_000)
        let one = ListRules(ticketTypes: ["VIP", "Press", "Crew"], opensAt: opens, maximumEntriesPerDay: 1)
        let two = ListRules(ticketTypes: ["Crew", "VIP", "Press"], opensAt: opens, maximumEntriesPerDay: 1)
        #expect(one.json == two.json)
        #expect(
            one.json
                == #"{"allowsReentry":true,"maximumEntriesPerDay":1,"opensAt":"2026-11-30T00:53:20Z","ticketTypes":["Crew","Press","VIP"]}"#
        )
        #expect(ListRules(json: one.json) == one)
        #expect(ListRules.everyone.json == #"{"allowsReentry":true}"#)
        #expect(ListRules(json: "{\"ticketTypes\": 3}") == nil)
        #expect(ListRules(json: "not json") == nil)
    }

    /// A kiosk gets its gate from its enrolment code, and is moved later without enrolling again.
    @Test(arguments: RepositoryFactory.all)
    func anEnrolmentCodeGivesTheGateAndSetGateMovesIt(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event(guests: 0)
        let lounge = try await h.admin.createList(ListInput(name: "VIP lounge"), event: event.id)
        let app = try h.app()
        try await app.test(.router) { client in
            let code = try await h.admin.createEnrolmentCode(event: event.id, list: lounge.id, direction: .exit).code
            let enrolment = try await client.execute(
                uri: "/v1/enrolments/redeem", method: .post, headers: [.contentType: "application/json"],
                body: Harness.json(EnrolmentRequest(code: code, door: "Lounge out", kioskVersion: "1.0.0"))
            ) { response throws in
                #expect(response.status == .ok)
                return try Harness.decode(Enrolment.self, response.body)
            }
            #expect(
                try await h.repository.device(id: enrolment.deviceId)?.gate == Gate(list: lounge.id, direction: .exit))
            // A plain code: the first list, entry.
            let plain = try await client.enrol(h, event: event.id)
            #expect(try await h.repository.device(id: plain.id)?.gate == .firstListEntry)

            let moved = try await h.admin.setGate(
                device: enrolment.deviceId, event: event.id, list: nil, direction: .entry)
            #expect(moved == .firstListEntry)
            #expect(try await h.repository.device(id: enrolment.deviceId)?.gate == .firstListEntry)

            // Through the admin API, with its token.
            let token = try await h.admin.newAdminToken()
            let admin: HTTPFields = [.authorization: "Bearer \(token)", .contentType: "application/json"]
            try await client.execute(
                uri: "/v1/admin/events/\(event.id)/devices/\(plain.id)/gate", method: .put, headers: admin,
                body: Harness.json(GateInput(list: lounge.id.rawValue, direction: "exit"))
            ) { response in
                #expect(response.status == .ok)
            }
            #expect(try await h.repository.device(id: plain.id)?.gate == Gate(list: lounge.id, direction: .exit))
            try await client.execute(
                uri: "/v1/admin/events/\(event.id)/devices/\(plain.id)/gate", method: .put, headers: admin,
                body: Harness.json(GateInput(direction: "sideways"))
            ) { response in
                #expect(response.status == .badRequest)
            }
            let made = try await client.execute(
                uri: "/v1/admin/events/\(event.id)/lists", method: .post, headers: admin,
                body: Harness.json(ListInput(name: "Workshop", ticketTypes: ["Workshop"], maxEntries: 1))
            ) { response throws in
                #expect(response.status == .created)
                return try Harness.decode(ListInfo.self, response.body)
            }
            #expect(made.maxEntries == 1 && made.ticketTypes == ["Workshop"] && made.version == 1)
            let listed = try await client.execute(
                uri: "/v1/admin/events/\(event.id)/lists", method: .get, headers: admin
            ) { response throws in
                try Harness.decode([ListInfo].self, response.body)
            }
            #expect(listed.map(\.name) == [CheckInList.firstName, "VIP lounge", "Workshop"])
        }
        // Another event's list cannot be given to a code of this one, nor a device moved to it.
        let other = try await h.admin.createEvent(
            EventInput(name: "Other", startsAt: Harness.start, endsAt: Harness.start.addingTimeInterval(3600)),
            tenant: tenant.id)
        let foreign = try await h.admin.lists(event: other.id)[0]
        await #expect(throws: CheckinAdmin.Failure.self) {
            _ = try await h.admin.createEnrolmentCode(event: event.id, list: foreign.id)
        }
    }

    /// The command line: create-list prints the id, lists shows it, enrolment-code takes --list and --direction.
    @Test func listsFromTheCommandLine() async throws {
        let folder = RepositoryFactory.temporaryFolder()
        func ok(_ arguments: [String]) async throws -> String {
            let r = try await CommandLineTests.run(arguments, in: folder)
            #expect(r.status == 0, "\(arguments): \(r.err)")
            return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        _ = try await ok(["create-tenant", "--name", "Acme"])
        let event = try await ok([
            "create-event", "--tenant", "1", "--name", "Fest", "--starts", "2026-12-01T10:00:00Z",
            "--ends", "2026-12-03T23:00:00Z", "--time-zone", "Europe/Berlin",
        ])
        let vip = try await ok([
            "create-list", "--event", event, "--name", "VIP lounge", "--ticket-types", "VIP,Press",
            "--max-per-day", "1", "--no-reentry",
        ])
        #expect(vip == "2")
        let lines = try await ok(["lists", "--event", event]).split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("1\tMain entrance\t1\tevery ticket type"))
        #expect(
            lines[1].hasPrefix("2\tVIP lounge\t1\tticket types Press, VIP; at most 1 a day; no re-entry"), "\(lines)")
        let code = try await ok(["enrolment-code", "--event", event, "--list", vip, "--direction", "exit"])
        #expect(code.count == 19)
        let sideways = try await CommandLineTests.run(
            ["enrolment-code", "--event", event, "--direction", "sideways"], in: folder)
        #expect(sideways.status != 0 && sideways.err.contains("neither entry nor exit"), "\(sideways.err)")
        let missing = try await CommandLineTests.run(["enrolment-code", "--event", event, "--list", "9"], in: folder)
        #expect(missing.status != 0 && missing.err.contains("check-in list 9"), "\(missing.err)")
        let changed = try await ok([
            "change-list", "--event", event, "--id", vip, "--name", "VIP lounge", "--ticket-types", "VIP",
        ])
        #expect(changed == "2")
        let huge = try await CommandLineTests.run(
            ["create-list", "--event", event, "--name", "X", "--max-entries", "99999999999999999999"], in: folder)
        #expect(huge.status != 0)
    }

    /// A guest's ticket type (today's free-text access type became it): from the CSV column `ticket_type` or its
    /// older name, from the admin API's `ticketType` or its older name, to the roster's rows.
    @Test(arguments: RepositoryFactory.all)
    func ticketTypesArriveUnderTheirNameOrTheOlderOne(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, _) = try await h.event(guests: 0)
        _ = try await h.admin.importGuests(csv: "name,ticket_type\nAda,VIP\n", event: event.id)
        _ = try await h.admin.importGuests(csv: "name,access_type\nBob,General admission\n", event: event.id)
        let old = try APICoding.decoder().decode(
            GuestInput.self, from: Data(#"{"name":"Cy","accessType":"Press"}"#.utf8))
        _ = try await h.admin.addGuest(old, event: event.id)
        var both = GuestInput(name: "Di", ticketType: "Crew")
        both.accessType = "ignored"
        _ = try await h.admin.addGuest(both, event: event.id)
        let guests = try await h.repository.searchGuests(event: event.id, text: "", limit: 10)
        #expect(
            Dictionary(uniqueKeysWithValues: guests.map { ($0.name, $0.ticketType ?? "-") })
                == ["Ada": "VIP", "Bob": "General admission", "Cy": "Press", "Di": "Crew"])
        let bob = try #require(guests.first { $0.name == "Bob" })
        let row = GuestRecord(id: bob.id.text, name: bob.name, ticketType: bob.ticketType, version: bob.version)
        let page = RosterPage(
            guests: [row], nextPage: nil, complete: true, changeCursor: nil, total: 1, serverTime: Harness.start)
        let json = String(decoding: page.encodedJSON(), as: UTF8.self)
        #expect(json.contains(#""ticketType":"General admission""#) && !json.contains("accessType"), "\(json)")
        // A kiosk reading an older server's rows still gets the type.
        let older = json.replacingOccurrences(of: "ticketType", with: "accessType")
        #expect(try RosterPage(json: Data(older.utf8)).guests.first?.ticketType == "General admission")
        do {
            _ = try await h.admin.importGuests(
                csv: "name,ticket_type\nEd,\(String(repeating: "x", count: 600))\n", event: event.id)
            Issue.record("a 600-character ticket type was imported")
        } catch let failure as CheckinAdmin.Failure {
            #expect(failure.description.contains("ticket type"), "\(failure)")
        }
    }

    /// An event made before lists existed gets its first list from the migration (PostgreSQL: migration 13).
    @Test func theMigrationGivesEveryOlderEventItsFirstList() async throws {
        let database = try await PostgresTestDatabase.make()
        let repository = PostgresCheckinRepository(client: database.client(), secrets: database.secrets)
        try await repository.migrate(through: 12)
        for query: PostgresQuery in [
            "INSERT INTO tenant (id, name, created_at) VALUES (1, 'Acme', now())",
            """
            INSERT INTO event (id, tenant_id, name, starts_at, ends_at, grace_minutes)
            VALUES (1, 1, 'Gala', now(), now() + interval '5 hours', 30)
            """,
        ] {
            _ = try await repository.rows(query)
        }
        try await repository.migrate()
        let lists = try await repository.lists(event: EventID(1))
        #expect(lists.map(\.name) == [CheckInList.firstName])
        #expect(lists.first?.rules == .everyone)
    }
}

/// The organizer's pages for lists and gates: a list made on the lists page, a code made for it, a kiosk moved
/// on the devices page; every form refused without its token.
@Suite(.dropsTestDatabases) struct CheckInListPageTests {
    @Test(arguments: RepositoryFactory.all)
    func listsAreMadeAndKiosksMovedOnThePages(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, _) = try await h.event(guests: 0)
        try await h.organizer(of: tenant)
        let base = "/events/\(event.id.rawValue)"
        try await h.app().test(.router) { client in
            let (cookie, csrf) = try await WebPageTests.signIn(client, email: "ann%40example.org")
            func post(_ path: String, _ body: String) async throws -> (HTTPResponse.Status, String, String?) {
                try await client.execute(
                    uri: base + path, method: .post, headers: WebPageTests.form(cookie: cookie),
                    body: ByteBuffer(string: body)
                ) { ($0.status, String(buffer: $0.body), $0.headers[.location]) }
            }
            func page(_ path: String) async throws -> String {
                try await client.execute(uri: base + path, method: .get, headers: [.cookie: cookie]) {
                    String(buffer: $0.body)
                }
            }
            let empty = try await page("/lists")
            #expect(empty.contains(">Main entrance</th>") && empty.contains("every ticket type; re-entry"))
            let (status, _, location) = try await post(
                "/lists", "csrf=\(csrf)&name=VIP+lounge&ticketTypes=VIP%2C+Press&maxPerDay=1&noReentry=on")
            #expect(status == .seeOther || status == .found, "\(status)")
            #expect(location == base + "/lists?notice=list-made")
            let lists = try await h.repository.lists(event: event.id)
            let vip = try #require(lists.last)
            #expect(vip.name == "VIP lounge" && vip.rules.ticketTypes == ["VIP", "Press"])
            #expect(vip.rules.maximumEntriesPerDay == 1 && !vip.rules.allowsReentry)
            let shown = try await page("/lists")
            #expect(shown.contains(">VIP lounge</th>") && shown.contains("ticket types Press, VIP; at most 1 a day"))
            // Refused with the reason, what was typed kept; without the token, nothing.
            let (badStatus, badPage, _) = try await post("/lists", "csrf=\(csrf)&name=Big&capacity=lots")
            #expect(badStatus == .unprocessableContent && badPage.contains("is not a number"), "\(badPage)")
            #expect(badPage.contains("value=\"Big\""))
            let (forged, _, _) = try await post("/lists", "csrf=wrong&name=Forged")
            #expect(forged != .seeOther && forged != .found)
            #expect(try await h.repository.lists(event: event.id).count == 2)

            // A code for the lounge's exit is made; one for a list of no event is refused with the reason.
            let (made, _, madeAt) = try await post("/enrolment-codes", "csrf=\(csrf)&list=\(vip.id)&direction=exit")
            #expect((made == .seeOther || made == .found) && madeAt == base + "/devices#new-code", "\(made)")
            let (noList, noListPage, _) = try await post("/enrolment-codes", "csrf=\(csrf)&list=999&direction=exit")
            #expect(noList == .unprocessableContent && noListPage.contains("check-in list 999"), "\(noList)")

            // A kiosk enrolled with a plain code serves the first list; the devices page moves it.
            let kiosk = try await client.enrol(h, event: event.id, door: "Lounge")
            let before = try await page("/devices")
            #expect(before.contains(">Main entrance · entry</span>"), "\(before)")
            let (moved, _, movedTo) = try await post(
                "/devices/\(kiosk.id)/gate", "csrf=\(csrf)&list=\(vip.id)&direction=exit")
            #expect(moved == .seeOther || moved == .found)
            #expect(movedTo == base + "/devices?notice=gate#device-\(kiosk.id)")
            #expect(try await h.repository.device(id: kiosk.id)?.gate == Gate(list: vip.id, direction: .exit))
            let after = try await page("/devices")
            #expect(after.contains(">VIP lounge · exit</span>"), "\(after)")
            let (sideways, _, _) = try await post("/devices/\(kiosk.id)/gate", "csrf=\(csrf)&direction=sideways")
            #expect(sideways == .unprocessableContent)
            let (unknown, _, _) = try await post("/devices/nosuchdevice/gate", "csrf=\(csrf)&direction=exit")
            #expect(unknown == .notFound)
            let (forgedGate, _, _) = try await post("/devices/\(kiosk.id)/gate", "csrf=wrong&direction=entry")
            #expect(forgedGate != .seeOther && forgedGate != .found)
            #expect(try await h.repository.device(id: kiosk.id)?.gate == Gate(list: vip.id, direction: .exit))
        }
    }
}
