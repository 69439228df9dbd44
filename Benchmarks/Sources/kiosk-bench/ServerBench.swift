import ArgumentParser
import CheckinAdmin
import CheckinCore
import CheckinPostgres
import CheckinSQLite
import CheckinServer
import Foundation
import KioskCore
import KioskSync
import PassFormat
import PostgresNIO
import WireAPI

/// The server's own cost (issue 17, section 5): real `checkin-server serve` processes, uploads of many
/// devices at once and a first roster download, measured as the CPU time the kernel counts for the server
/// processes (and for PostgreSQL's backends), not as wall time, which the shared machine makes noisy. A second
/// server executable (`--baseline-server`, a build of an earlier commit) runs in the same run, turn about.
struct ServerBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Server CPU per ingested check-in and per roster download, real server processes (minutes).")

    @Option(help: "The checkin-server executable (default: the one beside kiosk-bench).") var server: String?
    @Option(help: "Another checkin-server executable to compare with, measured turn about in the same run.")
    var baselineServer: String?
    @Option(help: "Guests on the roster (the first download fetches them all).") var guests = 100_000
    @Option(help: "Devices uploading at once.") var kiosks = 20
    @Option(help: "Check-ins each device uploads per round (batches of 50).") var perKiosk = 250
    @Option(help: "Rounds per executable and store (each with its own fresh guests).") var rounds = 2
    @Option(help: "PostgreSQL server URL (default: CHECKIN_TEST_POSTGRES_URL, else .build/pg/url).")
    var postgres: String?
    @Flag(help: "Skip the PostgreSQL rows.") var noPostgres = false
    @Flag(help: "Skip the SQLite rows.") var noSQLite = false
    @Flag(help: "Skip the roster downloads.") var noRoster = false

    func run() async throws {
        let folder = NSTemporaryDirectory() + "kiosk-bench-server-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let beside = ProductBinary.path("checkin-server")
        var executables = [("this build", server ?? beside)]
        if let baselineServer { executables.insert(("baseline", baselineServer), at: 0) }
        for (_, path) in executables where !FileManager.default.isExecutableFile(atPath: path) {
            throw BenchFailure(
                "no checkin-server executable at \(path) (at the repository's root: swift build -c release)")
        }
        var results = ServerBenchTable(kiosks: kiosks, perKiosk: perKiosk, guests: guests)

        if !noSQLite {
            let path = folder + "/checkin.db"
            let repository = try SQLiteCheckinRepository(path: path, secrets: SecretsKey.random())
            let setup = try await ServerBenchSetup.make(repository: repository, guests: guests, log: progress)
            try await measure(
                setup, store: "SQLite", arguments: ["--database", path], processes: [1], executables, into: &results)
        }
        if !noPostgres {
            switch await BenchPostgres.make(serverURL: BenchPostgres.serverURL(option: postgres)) {
            case .failure(let why):
                results.notes.append("PostgreSQL rows SKIPPED: \(why).")
            case .success(let database):
                let client = PostgresClient(
                    configuration: PostgresClient.Configuration(url: database.url)!,
                    backgroundLogger: BenchServer.logger)
                let clientTask = Task { await client.run() }
                do {
                    let repository = PostgresCheckinRepository(
                        client: client, secrets: try SecretsKey.random(), logger: BenchServer.logger)
                    try await repository.migrate()
                    let setup = try await ServerBenchSetup.make(
                        repository: repository, guests: guests, log: progress)
                    try await measure(
                        setup, store: "PostgreSQL", arguments: ["--postgres", database.url], processes: [1, 2],
                        executables, into: &results, database: database)
                    results.notes.append("PostgreSQL server settings: \(await database.durability()).")
                } catch {
                    clientTask.cancel()
                    await database.drop()
                    throw error
                }
                clientTask.cancel()
                await database.drop()
            }
        }
        results.print()
    }

    /// Every executable and process count on one store, turn about for `rounds` rounds.
    func measure(
        _ setup: ServerBenchSetup, store: String, arguments: [String], processes: [Int],
        _ executables: [(String, String)], into results: inout ServerBenchTable, database: BenchPostgres? = nil
    ) async throws {
        for round in 0..<rounds {
            for count in processes {
                for (name, path) in executables {
                    let label = "\(store), \(count) process\(count == 1 ? "" : "es"), \(name)"
                    progress("round \(round + 1): \(label)")
                    let servers = try await ServerProcesses(executable: path, store: arguments, count: count)
                    do {
                        let run = ServerBenchRun(
                            setup: setup, servers: servers, database: database, kiosks: kiosks, perKiosk: perKiosk)
                        var sample = try await run.ingest()
                        if !noRoster && count == 1 { sample.roster = try await run.rosterDownload() }
                        results.add(label, sample)
                    } catch {
                        servers.stop()
                        throw error
                    }
                    servers.stop()
                }
            }
        }
    }

    func progress(_ text: String) { FileHandle.standardError.write(Data(("server bench: " + text + "\n").utf8)) }
}

/// What the database holds before any server process starts: a tenant, an event, its guests.
struct ServerBenchSetup: Sendable {
    let admin: CheckinAdmin
    let event: EventID
    let pool: SharedGuestPool

    static func make(repository: any CheckinRepository, guests: Int, log: (String) -> Void) async throws
        -> ServerBenchSetup
    {
        let admin = CheckinAdmin(repository: repository)
        let tenant = try await admin.createTenant(name: "Bench")
        let now = Date()
        let event = try await admin.createEvent(
            EventInput(
                name: "Bench gala", startsAt: now.addingTimeInterval(-3600), endsAt: now.addingTimeInterval(6 * 3600)),
            tenant: tenant.id
        ).id
        log("adding \(guests) guests")
        var ids: [GuestID] = []
        for chunk in stride(from: 0, to: guests, by: 10_000) {
            let batch = (chunk..<min(chunk + 10_000, guests)).map { i in
                NewGuest(
                    name:
                        "\(SyncBench.firstNames[i % SyncBench.firstNames.count]) \(SyncBench.lastNames[i / SyncBench.firstNames.count % SyncBench.lastNames.count]) \(i)",
                    email: nil, partySize: 1 + i % 3, ticketType: i % 10 == 0 ? "VIP" : nil)
            }
            ids += try await repository.addGuests(batch, event: event, at: Date()).map(\.id)
        }
        return ServerBenchSetup(admin: admin, event: event, pool: SharedGuestPool(ids))
    }
}

/// Hands out guests, each once, from several tasks.
final class SharedGuestPool: @unchecked Sendable {
    private let lock = NSLock()
    private let ids: [GuestID]
    private var next = 0

    init(_ ids: [GuestID]) { self.ids = ids }

    func take(_ count: Int) throws -> ArraySlice<GuestID> {
        try lock.withLock {
            guard next + count <= ids.count else {
                throw BenchFailure("too few guests for the rounds (\(ids.count)): raise --guests or lower --rounds")
            }
            defer { next += count }
            return ids[next..<next + count]
        }
    }
}
