import DedicatedThreads
import Foundation
import KioskCore
import KioskSync
import PassFormat
import WireAPI

/// (d) The server's ingest: many enrolled kiosks, each with its own store file, client and thread, flushing
/// their queues at once; beside one kiosk alone on the same server.
extension SyncBench {
    func ingest(
        _ server: BenchServer, event: EventID, pool: GuestPool, folder: String, _ executors: [ThreadExecutor]
    ) async throws -> IngestTable.Row {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let alone = try await BenchKiosk(
            path: folder + "/alone.db", server: server, url: server.urls[0], event: event, door: "Alone")
        var fleet: [BenchKiosk] = []
        for i in 0..<kiosks {
            fleet.append(
                try await BenchKiosk(
                    path: folder + "/kiosk-\(i).db", server: server, url: server.urls[i % server.urls.count],
                    event: event, door: "Door \(i)"))
        }
        var aloneSeconds: [Double] = []
        var fleetSeconds: [Double] = []
        var confirmed = 0
        for _ in 0..<ingestRounds {
            let slice = try pool.take(pending)
            try await Self.onEach([alone], executors) { kiosk, _ in try kiosk.checkIn(slice) }
            let alonesConfirmed = Counter()
            aloneSeconds.append(
                try await Stopwatch.seconds {
                    try await Self.onEach([alone], executors) { kiosk, _ in
                        alonesConfirmed.add(try await kiosk.flush().confirmed)
                    }
                })
            guard alonesConfirmed.value == pending else {
                throw BenchFailure("one kiosk alone: \(alonesConfirmed.value) of \(pending) confirmed")
            }

            let slices = try fleet.map { _ in try pool.take(perKiosk) }
            try await Self.onEach(fleet, executors) { kiosk, i in try kiosk.checkIn(slices[i]) }
            let counts = Counter()
            fleetSeconds.append(
                try await Stopwatch.seconds {
                    try await Self.onEach(fleet, executors) { kiosk, _ in counts.add(try await kiosk.flush().confirmed)
                    }
                })
            confirmed += counts.value
        }
        await alone.shutdown()
        for kiosk in fleet { await kiosk.shutdown() }
        return IngestTable.Row(
            server: server.label, alone: aloneSeconds.median, fleet: fleetSeconds.median, confirmed: confirmed,
            sent: ingestRounds * kiosks * perKiosk)
    }

    /// Runs `body` for every kiosk at once, kiosk `i` on executor `i` (its own thread); waits for all.
    static func onEach(
        _ kiosks: [BenchKiosk], _ executors: [ThreadExecutor],
        _ body: @escaping @Sendable (BenchKiosk, Int) async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (i, kiosk) in kiosks.enumerated() {
                group.addTask(executorPreference: executors[i % executors.count]) { try await body(kiosk, i) }
            }
            try await group.waitForAll()
        }
    }
}

/// A total added to from several tasks.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0
    func add(_ n: Int) { lock.withLock { total += n } }
    var value: Int { lock.withLock { total } }
}

/// The ingest table: a row per server setup.
struct IngestTable {
    struct Row {
        var server: String
        /// Median seconds of one kiosk alone flushing `pending`.
        var alone: Double
        /// Median seconds of the fleet flushing `perKiosk` each, at once.
        var fleet: Double
        var confirmed: Int
        var sent: Int
    }

    var kiosks: Int
    var perKiosk: Int
    var pending: Int
    var rounds: Int
    var rows: [Row] = []
    var notes: [String] = []

    func print() {
        let fleetCount = kiosks * perKiosk
        Swift.print(
            "## Server ingest: \(kiosks) kiosks flushing \(perKiosk) check-ins each at once (median of \(rounds))\n")
        let baseline = rows.first.map { Double(fleetCount) / $0.fleet }
        Swift.print(
            table(
                [
                    "server", "1 kiosk alone, check-ins/s", "\(kiosks) kiosks, seconds",
                    "\(kiosks) kiosks, check-ins/s",
                    "vs 1 kiosk alone", "vs first row", "confirmed",
                ],
                rows.map { row in
                    let perSecond = Double(fleetCount) / row.fleet
                    return [
                        row.server, rate(pending, row.alone), f2(row.fleet), rate(fleetCount, row.fleet),
                        f2(perSecond / (Double(pending) / row.alone)), baseline.map { f2(perSecond / $0) } ?? "",
                        "\(row.confirmed)/\(row.sent)",
                    ]
                }))
        Swift.print(
            "\nServer and kiosks share this machine's cores; each kiosk runs on its own thread with its own store "
                + "file and HTTP client (kiosk-side commits are synchronous=FULL).")
        for note in notes { Swift.print(note) }
        Swift.print()
    }
}
