import ArgumentParser
import Foundation
import KioskCore
import KioskScenes
import KioskStore
import PassFormat
import SignedRecords

/// Roster lookups on a roster of 100,000 guests, on disk.
struct LookupBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "lookup", abstract: "Roster lookup latency.")

    @Option(help: "Guests on the roster.") var guests = 100_000
    @Option(help: "Lookups.") var lookups = 20_000

    func run() throws {
        let folder = NSTemporaryDirectory() + "kiosk-bench-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try SQLiteDoorStore(path: folder + "/kiosk.db", mode: .createIfMissing, key: DatabaseKey.random())
        var rng = SplitMix64(seed: 3)
        let event = EventID(1)
        var roster: [RosterGuest] = []
        for i in 0..<guests {
            roster.append(
                RosterGuest(
                    guest: GuestID.random(using: &rng), tenant: TenantID(1), event: event,
                    name: "Guest \(i) Example", email: "g\(i)@example.org"))
        }
        let loadMS = try Stopwatch.milliseconds { try store.upsertGuests(roster) }
        var hit: [Double] = []
        var miss: [Double] = []
        var dict: [Double] = []
        let index = Dictionary(uniqueKeysWithValues: roster.map { ($0.guest, $0) })
        for i in 0..<lookups {
            let g = roster[Int.random(in: 0..<roster.count, using: &rng)].guest
            hit.append(try Stopwatch.milliseconds { _ = try store.lookUp(guest: g, event: event) })
            let unknown = GuestID.random(using: &rng)
            miss.append(try Stopwatch.milliseconds { _ = try store.lookUp(guest: unknown, event: event) })
            dict.append(Stopwatch.milliseconds { _ = index[g] })
            _ = i
        }
        print("## Roster lookup, \(guests) guests on disk (WAL), \(lookups) lookups; ms\n")
        print(
            table(
                ["lookup", "p50", "p99", "max", "p99 / in-memory dictionary p99"],
                [
                    [
                        "SQLite, guest on roster", f3(hit.median), f3(hit.percentile(0.99)), f3(hit.max()!),
                        f2(hit.percentile(0.99) / dict.percentile(0.99)),
                    ],
                    [
                        "SQLite, unknown guest", f3(miss.median), f3(miss.percentile(0.99)), f3(miss.max()!),
                        f2(miss.percentile(0.99) / dict.percentile(0.99)),
                    ],
                    [
                        "baseline: Swift dictionary", f3(dict.median), f3(dict.percentile(0.99)), f3(dict.max()!),
                        "1.00",
                    ],
                ]))
        print("\n(targets: p50 at most 0.01 ms, p99 under 0.2 ms; loading the roster took \(Int(loadMS)) ms)\n")
    }
}
