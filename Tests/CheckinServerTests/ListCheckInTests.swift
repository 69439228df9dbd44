import CheckinCore
import EntryRules
import Foundation
import HummingbirdTesting
import PassFormat
import PostgresTestSupport
import Testing
import WireAPI

@testable import CheckinAdmin

/// Check-ins per list and exits, uploaded through the API on every store (issue 51).
@Suite("Check-ins per list and exits", .dropsTestDatabases)
struct ListCheckInTests {
    /// Admitted at the main entrance and at the VIP lounge is not a double entry; twice at the lounge is.
    @Test(arguments: RepositoryFactory.all)
    func aGuestIsCheckedInOncePerList(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (_, event, guests) = try await h.event(guests: 2)
        let lounge = try await h.admin.createList(ListInput(name: "VIP lounge"), event: event.id)
        let ada = guests[0]
        let t0 = h.clock.now()
        try await h.app().test(.router) { client in
            let main = try await client.enrol(h, event: event.id, door: "Main")
            let vip = try await client.enrol(h, event: event.id, door: "Lounge")
            var atMain = main.item(1, guest: ada, at: t0, door: "Main")
            atMain.list = nil  // a kiosk from before lists: the first list
            var atLounge = vip.item(1, guest: ada, at: t0.addingTimeInterval(60), door: "Lounge")
            atLounge.list = lounge.id.rawValue
            var again = vip.item(2, guest: ada, at: t0.addingTimeInterval(120), door: "Lounge")
            again.list = lounge.id.rawValue
            var elsewhere = vip.item(3, guest: guests[1], at: t0, door: "Lounge")
            elsewhere.list = 999_999
            let first = try await client.upload([atMain], event: event.id, as: main)
            let second = try await client.upload([atLounge, again, elsewhere], event: event.id, as: vip)
            #expect(first.outcomes.map(\.outcome.rawValue) == ["applied"])
            #expect(
                second.outcomes.map(\.outcome.rawValue) == ["applied", "superseded", "rejected"], "\(second.outcomes)")
            #expect(second.outcomes[2].reason == "unknown_list")
        }
        // The event's check-in (what the pages and counts read) is the first list's; the lounge has its own.
        let checkIns = try await h.repository.checkIns(event: event.id)
        #expect(checkIns.map(\.door) == ["Main"])
        let doubles = try await h.repository.doubleEntries(event: event.id)
        #expect(doubles.map(\.otherDoor) == ["Lounge"])
        #expect(doubles.first?.checkInDoor == "Lounge")
        let main = try await h.admin.lists(event: event.id)[0]
        #expect(try await h.repository.inside(event: event.id) == [lounge.id: 1, main.id: 1])
    }

    /// An exit lets the guest out; an entry after it is a re-entry, not a double entry, even when the exit
    /// arrives after the entry that follows it; inside now counts who is in at each list.
    @Test(arguments: RepositoryFactory.all)
    func exitsMakeReentriesAndInsideNow(_ factory: RepositoryFactory) async throws {
        let h = try await Harness(factory)
        let (tenant, event, guests) = try await h.event(guests: 3)
        let first = try await h.admin.lists(event: event.id)[0]
        let t0 = h.clock.now()
        try await h.app().test(.router) { client in
            let entrance = try await client.enrol(h, event: event.id, door: "Gate A")
            let exitDoor = try await client.enrol(h, event: event.id, door: "Gate A out")
            // Ada in, out, in again; Bob in; Cy out without ever coming in.
            let inAda = entrance.item(1, guest: guests[0], at: t0, door: "Gate A")
            let inBob = entrance.item(2, guest: guests[1], at: t0, door: "Gate A")
            let backAda = entrance.item(3, guest: guests[0], at: t0.addingTimeInterval(600), door: "Gate A")
            let answers = try await client.upload([inAda, inBob, backAda], event: event.id, as: entrance)
            #expect(answers.outcomes.map(\.outcome.rawValue) == ["applied", "applied", "superseded"])
            // The exit between Ada's entries arrives late: her second entry becomes a re-entry.
            let outAda = exitDoor.item(
                1, guest: guests[0], kind: .exit, at: t0.addingTimeInterval(300), door: "Gate A out")
            let outCy = exitDoor.item(2, guest: guests[2], kind: .exit, at: t0, door: "Gate A out")
            let exits = try await client.upload([outAda, outCy], event: event.id, as: exitDoor)
            #expect(exits.outcomes.map(\.outcome.rawValue) == ["recorded", "recorded"])
            #expect(exits.outcomes[1].reason == "not_inside")
            // The same exit again: its stored answer, nothing twice.
            #expect(
                try await client.upload([outAda], event: event.id, as: exitDoor).outcomes.map(\.outcome.rawValue) == [
                    "recorded"
                ])
        }
        #expect(try await h.repository.doubleEntries(event: event.id).isEmpty)
        let events = try await h.repository.checkInEvents(event: event.id)
        let reentry = try #require(
            events.first { $0.key.deviceId != "" && $0.key.sequence == 3 && $0.kind == .checkIn })
        #expect(reentry.outcome == .recorded)
        #expect(try await h.repository.inside(event: event.id) == [first.id: 2])
        // Ada leaves again: one inside.
        try await h.app().test(.router) { client in
            let exitDoor = try await client.enrol(h, event: event.id, door: "Gate B out")
            let out = exitDoor.item(
                1, guest: guests[0], kind: .exit, at: t0.addingTimeInterval(900), door: "Gate B out")
            _ = try await client.upload([out], event: event.id, as: exitDoor)
        }
        #expect(try await h.repository.inside(event: event.id) == [first.id: 1])
        #expect(try await h.repository.passages(event: event.id) == [first.id: ListPassages(arrivals: 2, exits: 3)])
        // The dashboard's live part shows each list: arrivals, exits, inside now.
        try await h.organizer(of: tenant)
        try await h.app().test(.router) { client in
            let (cookie, _) = try await WebPageTests.signIn(client, email: "ann%40example.org")
            let live = try await client.execute(
                uri: "/events/\(event.id.rawValue)/live", method: .get, headers: [.cookie: cookie]
            ) { String(buffer: $0.body) }
            #expect(
                live.contains(
                    #"<th scope="row">Main entrance</th><td data-label="Arrivals">2</td><td data-label="Exits">3</td><td data-label="Inside now"><span class="inside">1</span>"#
                ), "\(live)")
        }
    }

    /// `checkin-server inside` counts who is in per list; `export` lines carry list and direction.
    @Test func insideAndTheExportFromTheCommandLine() async throws {
        let folder = RepositoryFactory.temporaryFolder()
        let path = folder + "/checkin.db"
        let h = try await Harness(RepositoryFactory(name: "file") { try RepositoryFactory.sqlite(path: path) })
        let (_, event, guests) = try await h.event(guests: 2)
        let lounge = try await h.admin.createList(ListInput(name: "VIP lounge", capacity: 1), event: event.id)
        let t0 = h.clock.now()
        try await h.app().test(.router) { client in
            let door = try await client.enrol(h, event: event.id, door: "Lounge")
            var items = [
                door.item(1, guest: guests[0], at: t0, door: "Lounge"),
                door.item(2, guest: guests[1], at: t0, door: "Lounge"),
                door.item(3, guest: guests[1], kind: .exit, at: t0.addingTimeInterval(60), door: "Lounge"),
            ]
            for index in items.indices { items[index].list = lounge.id.rawValue }
            _ = try await client.upload(items, event: event.id, as: door)
        }
        let all = try await CommandLineTests.run(["inside", "--event", "\(event.id)"], in: folder)
        #expect(all.status == 0, "\(all.err)")
        #expect(all.out == "1\tMain entrance\t0\t-\n2\tVIP lounge\t1\t1\n", "\(all.out)")
        #expect(all.err.contains("VIP lounge is at its capacity"), "\(all.err)")
        let one = try await CommandLineTests.run(["inside", "--event", "\(event.id)", "--list", "2"], in: folder)
        #expect(one.out == "1\n")
        let none = try await CommandLineTests.run(["inside", "--event", "\(event.id)", "--list", "7"], in: folder)
        #expect(none.status != 0 && none.err.contains("check-in list 7"))
        let export = try await CommandLineTests.run(["export", "--event", "\(event.id)"], in: folder)
        let lines = export.out.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains(#""record":"check_in""#) }.count == 2)
        #expect(lines.allSatisfy { $0.contains(#""list":2"#) }, "\(lines)")
        #expect(lines.filter { $0.contains(#""direction":"exit""#) && $0.contains(#""kind":"exit""#) }.count == 1)
        #expect(lines.filter { $0.contains(#""direction":"entry""#) }.count == 4)
    }
}
