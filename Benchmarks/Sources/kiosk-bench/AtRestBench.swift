import ArgumentParser
import Cryptography
import Foundation
import KioskCore
import KioskScenes
@_spi(Benchmarks) import KioskStore
import PassFormat

/// The kiosk database encrypted at rest (AES-256-GCM pages through the encrypting VFS) against a plain one
/// measured in the same run, interleaved operation by operation so both see the same machine; then what the
/// field-level alternative (AES-GCM per field, keyed hashes for the search) would cost per operation and in size.
struct AtRestBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "at-rest", abstract: "Encrypted kiosk database against a plain one, and the field-level model.")

    @Option(help: "Guests on the roster.") var guests = 100_000
    @Option(help: "Lookups per store.") var lookups = 20_000
    @Option(help: "Admits (check-in, queue, audit; synchronous=FULL) per store.") var admits = 400
    @Option(help: "Searches per kind per store.") var searches = 2_000

    func run() throws {
        let folder = NSTemporaryDirectory() + "kiosk-bench-at-rest-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let roster = BenchRoster.make(guests)
        let plainPath = folder + "/plain/kiosk.db"
        let encryptedPath = folder + "/encrypted/kiosk.db"
        for path in [plainPath, encryptedPath] {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        }
        let stores = [
            try SQLiteDoorStore.plaintextForBenchmark(path: plainPath),
            try SQLiteDoorStore(path: encryptedPath, mode: .createIfMissing, key: .random()),
        ]
        var m = [AtRestMeasures(), AtRestMeasures()]
        for (index, store) in stores.enumerated() {
            m[index].loadMS = try Stopwatch.milliseconds { try store.upsertGuests(roster) }
        }
        var rng = SplitMix64(seed: 18)
        let event = EventID(1)
        for i in 0..<lookups {
            let guest = roster[Int.random(in: 0..<roster.count, using: &rng)].guest
            let unknown = GuestID.random(using: &rng)
            for index in (i % 2 == 0 ? [0, 1] : [1, 0]) {
                m[index].hit.append(
                    try Stopwatch.milliseconds { _ = try stores[index].lookUp(guest: guest, event: event) })
                m[index].miss.append(
                    try Stopwatch.milliseconds { _ = try stores[index].lookUp(guest: unknown, event: event) })
            }
        }
        for i in 0..<admits {
            let guest = roster[i * 97 % roster.count]
            let checkIn = CheckIn(
                guest: guest.guest, event: event, door: "North", at: Date(), arrived: 1, source: .camera)
            let attempt = ScanAttempt(
                at: checkIn.at, door: "North", source: .camera, payload: guest.guest.text, guest: guest.guest,
                verdict: "admitted", reason: "valid pass")
            let next = roster[Int.random(in: 0..<roster.count, using: &rng)].guest
            for index in (i % 2 == 0 ? [0, 1] : [1, 0]) {
                m[index].admit.append(
                    try Stopwatch.milliseconds { _ = try stores[index].record(checkIn: checkIn, attempt: attempt) })
                m[index].hitAfterWrite.append(
                    try Stopwatch.milliseconds { _ = try stores[index].lookUp(guest: next, event: event) })
            }
        }
        for i in 0..<searches {
            let guest = roster[Int.random(in: 0..<roster.count, using: &rng)]
            let word = String(guest.name.split(separator: " ").last!.prefix(4))
            let email = String(guest.email.prefix(8))
            let code = String(guest.guest.text.prefix(6))
            for index in (i % 2 == 0 ? [0, 1] : [1, 0]) {
                let store = stores[index]
                m[index].searchName.append(
                    try Stopwatch.milliseconds { _ = try store.searchGuests(prefix: word, event: event, limit: 9) })
                m[index].searchEmail.append(
                    try Stopwatch.milliseconds { _ = try store.searchGuests(prefix: email, event: event, limit: 9) })
                m[index].searchCode.append(
                    try Stopwatch.milliseconds { _ = try store.guests(codePrefix: code, event: event, limit: 9) })
            }
        }
        for (index, path) in [plainPath, encryptedPath].enumerated() {
            try stores[index].checkpointForBenchmark()
            m[index].bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        }
        print("## Kiosk database at rest: plain against AES-256-GCM pages, \(guests) guests, same run, interleaved\n")
        print(AtRestMeasures.markdown(plain: m[0], encrypted: m[1]))
        print(
            "\n(targets: lookup p99 ≤ 0.2 ms; an admit at most 1.10× plain; \(lookups) lookups, \(admits) admits, "
                + "\(searches) searches of each kind; ms unless said)\n")
        try FieldLevelModel.run(roster: roster, folder: folder, plainBytes: m[0].bytes)
    }
}

/// What one store gave.
struct AtRestMeasures {
    var loadMS = 0.0
    var bytes = 0
    var hit: [Double] = []
    var miss: [Double] = []
    var hitAfterWrite: [Double] = []
    var admit: [Double] = []
    var searchName: [Double] = []
    var searchEmail: [Double] = []
    var searchCode: [Double] = []

    static func markdown(plain p: AtRestMeasures, encrypted e: AtRestMeasures) -> String {
        func rows(_ name: String, _ a: [Double], _ b: [Double]) -> [[String]] {
            [
                [name + " p50", f3(a.median), f3(b.median), f2(b.median / a.median)],
                [
                    name + " p99", f3(a.percentile(0.99)), f3(b.percentile(0.99)),
                    f2(b.percentile(0.99) / a.percentile(0.99)),
                ],
            ]
        }
        let mean = { (values: [Double]) in values.reduce(0, +) / Double(max(values.count, 1)) }
        var all: [[String]] = []
        all += rows("lookup, guest on roster", p.hit, e.hit)
        all += rows("lookup, unknown guest", p.miss, e.miss)
        all += rows("lookup just after an admit", p.hitAfterWrite, e.hitAfterWrite)
        all += rows("admit (check-in + queue + audit, fsync)", p.admit, e.admit)
        all.append(["admit mean", f3(mean(p.admit)), f3(mean(e.admit)), f2(mean(e.admit) / mean(p.admit))])
        all += rows("search: name word prefix (4 letters)", p.searchName, e.searchName)
        all += rows("search: e-mail prefix (8)", p.searchEmail, e.searchEmail)
        all += rows("search: code prefix (6)", p.searchCode, e.searchCode)
        all.append(["roster load, one transaction", f1(p.loadMS), f1(e.loadMS), f2(e.loadMS / p.loadMS)])
        all.append([
            "file size, MB", f2(Double(p.bytes) / 1e6), f2(Double(e.bytes) / 1e6),
            f2(Double(e.bytes) / Double(p.bytes)),
        ])
        return table(["operation", "plain", "encrypted pages", "ratio"], all)
    }
}

func f1(_ x: Double) -> String { String(format: "%.1f", x) }
