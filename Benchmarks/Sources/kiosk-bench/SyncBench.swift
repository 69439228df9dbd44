import ArgumentParser
import CheckinCore
import CheckinServer
import DedicatedThreads
import Foundation
import KioskCore
import KioskStore
import KioskSync
import PassFormat
import WireAPI

/// The kiosk's sync against a real check-in server in this process, over plain HTTP on loopback (issue 7):
/// the first roster download and apply, a delta, a queue flush, and the server's ingest with many kiosks at
/// once on SQLite and PostgreSQL. Each figure beside a baseline measured in the same run.
struct SyncBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Roster download, delta, queue flush and server ingest over loopback (minutes; not in 'all').")

    @Option(help: "Guests on the server's roster.") var guests = 100_000
    @Option(help: "First downloads, each into a fresh kiosk.") var downloadRounds = 2
    @Option(help: "Changes in the delta (half cancellations, half walk-ins).") var deltaChanges = 1_000
    @Option(help: "Check-ins one kiosk flushes.") var pending = 500
    @Option(help: "Rounds of the delta and the flush.") var rounds = 5
    @Option(help: "Kiosks uploading at once.") var kiosks = 20
    @Option(help: "Check-ins each of them uploads.") var perKiosk = 250
    @Option(help: "Rounds of the ingest.") var ingestRounds = 3
    @Option(help: "PostgreSQL server URL (default: CHECKIN_TEST_POSTGRES_URL, else .build/pg/url).")
    var postgres: String?
    @Flag(help: "Skip the PostgreSQL rows.") var noPostgres = false
    @Flag(help: "Only the first download (for profiling the kiosk's apply).") var downloadOnly = false

    func run() async throws {
        let folder = NSTemporaryDirectory() + "kiosk-bench-sync-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let executors = (0..<kiosks).map { ThreadExecutor(name: "kiosk \($0)") }
        defer { for executor in executors { executor.stop() } }

        // The kiosk's own exchanges, on SQLite.
        let server = try await BenchServer.sqlite(folder: folder)
        let event = try await Self.event(on: server)
        progress("adding \(guests) guests to the server")
        let pool = GuestPool(try await Self.addGuests(guests, to: server, event: event))
        let kiosk = try await firstDownload(server, event: event, folder: folder)
        if downloadOnly {
            await kiosk.shutdown()
            await server.stop()
            return
        }
        try await delta(kiosk, server: server, event: event, pool: pool)
        try await flush(kiosk, pool: pool)
        await kiosk.shutdown()

        // The server's ingest.
        var ingest = IngestTable(kiosks: kiosks, perKiosk: perKiosk, pending: pending, rounds: ingestRounds)
        progress("ingest on SQLite")
        ingest.rows.append(
            try await self.ingest(server, event: event, pool: pool, folder: folder + "/sqlite", executors))
        await server.stop()
        if noPostgres {
            ingest.notes.append("PostgreSQL rows skipped: --no-postgres.")
        } else {
            switch await BenchPostgres.make(serverURL: BenchPostgres.serverURL(option: postgres)) {
            case .failure(let why):
                ingest.notes.append(
                    "PostgreSQL rows SKIPPED: \(why) (start one with `source scripts/postgres.sh`, or give --postgres URL)."
                )
            case .success(let database):
                do {
                    try await postgresIngest(database, into: &ingest, folder: folder, executors)
                } catch {
                    await database.drop()
                    throw error
                }
                ingest.notes.append("PostgreSQL server settings: \(await database.durability()).")
                await database.drop()
            }
        }
        ingest.print()
    }

    func postgresIngest(
        _ database: BenchPostgres, into ingest: inout IngestTable, folder: String, _ executors: [ThreadExecutor]
    ) async throws {
        let one = try await BenchServer.postgres(url: database.url, applications: 1, label: "PostgreSQL, 1 process")
        let event = try await Self.event(on: one)
        let needed = ingestRounds * (pending + kiosks * perKiosk)
        progress("adding \(2 * needed) guests to PostgreSQL")
        let pool = GuestPool(try await Self.addGuests(2 * needed, to: one, event: event))
        progress("ingest on PostgreSQL, 1 process")
        ingest.rows.append(try await self.ingest(one, event: event, pool: pool, folder: folder + "/pg1", executors))
        await one.stop()
        let two: BenchServer
        if let processes = try await BenchServer.postgresProcesses(url: database.url, processes: 2) {
            two = processes
        } else {
            ingest.notes.append(
                "No checkin-server executable (at the repository's root: swift build -c release): the "
                    + "2-server row ran two applications in this process, each with its own PostgreSQL client.")
            two = try await BenchServer.postgres(
                url: database.url, applications: 2, label: "PostgreSQL, 2 in-process applications")
        }
        progress("ingest on \(two.label)")
        ingest.rows.append(try await self.ingest(two, event: event, pool: pool, folder: folder + "/pg2", executors))
        await two.stop()
    }

    static func event(on server: BenchServer) async throws -> EventID {
        let tenant = try await server.admin.createTenant(name: "Bench")
        let now = Date()
        return try await server.admin.createEvent(
            EventInput(
                name: "Bench gala", startsAt: now.addingTimeInterval(-3600), endsAt: now.addingTimeInterval(6 * 3600)),
            tenant: tenant.id
        ).id
    }

    static let firstNames = [
        "Émile", "Zoë", "Mary-Jane", "Łukasz", "Anna", "José", "Søren", "Chloé", "Jürgen", "Aoife", "Björn", "Inès",
    ]
    static let lastNames = [
        "Müller", "O'Neil", "García", "Dubois", "Nguyễn", "Smith", "Kowalski", "Johansson", "Rossi",
    ]

    /// Guests with accented, hyphenated names (the kiosk folds them for search), in transactions of 10,000.
    static func addGuests(_ count: Int, to server: BenchServer, event: EventID, from start: Int = 0) async throws
        -> [GuestID]
    {
        var ids: [GuestID] = []
        for chunk in stride(from: start, to: start + count, by: 10_000) {
            let guests = (chunk..<min(chunk + 10_000, start + count)).map { i in
                NewGuest(
                    name:
                        "\(firstNames[i % firstNames.count]) \(lastNames[i / firstNames.count % lastNames.count]) \(i)",
                    email: "guest\(i)@example.org", partySize: 1 + i % 3, ticketType: i % 10 == 0 ? "VIP" : nil)
            }
            ids += try await server.repository.addGuests(guests, event: event, at: Date()).map(\.id)
        }
        return ids
    }

    func progress(_ text: String) { FileHandle.standardError.write(Data(("sync bench: " + text + "\n").utf8)) }
}

/// Hands out the server's guests, each once.
final class GuestPool {
    private let ids: [GuestID]
    private var next = 0

    init(_ ids: [GuestID]) { self.ids = ids }

    func take(_ count: Int) throws -> ArraySlice<GuestID> {
        guard next + count <= ids.count else {
            throw BenchFailure("the roster has too few guests for the benchmark (\(ids.count)): raise --guests")
        }
        defer { next += count }
        return ids[next..<next + count]
    }
}
