import DedicatedThreads
import Foundation
import KioskCore
import PassFormat
import PostgresTestSupport
import TestSupport
import Testing

/// Check-ins made offline at two doors reach a real checkin-server through a `FaultProxy` that loses
/// requests and responses, cuts connections mid-body and delays: `kioskctl sync` runs again until each door's
/// queue is empty, and the server's export has every scan exactly once, in each door's scan order, with its
/// scan time, and one check-in per guest, the earliest scan's.
@Suite("Sync through a fault-injecting proxy: exactly once, in scan order", .serialized, .dropsTestDatabases)
struct FaultProxySyncTests {
    enum Database: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    /// About half of the exchanges fail, in every way the proxy knows (each at least once, on an upload); a
    /// third of the connections are slow.
    static func plan(seed: UInt64) -> FaultPlan {
        FaultPlan(
            seed: seed, dropRequest: 0.15, dropResponse: 0.2, cutRequest: 0.1, cutResponse: 0.1, slowConnection: 0.3,
            maximumDelay: .milliseconds(100),
            scripted: [.dropResponse, .dropRequest, .cutRequest(record: 2, fraction: 0.5), .cutResponse(fraction: 0.5)])
    }

    @Test(
        "10 check-ins at two doors, through lost requests, lost responses, cuts and delays",
        .enabled(if: LiveProcesses.toolsPresent, "needs openssl and curl"), arguments: Database.allCases)
    func tenCheckIns(database: Database) async throws {
        try await syncThroughFaults(scans: 10, database: database, plan: Self.plan(seed: 10), rounds: 80)
    }

    @Test(
        "500 check-ins at two doors, through lost requests, lost responses, cuts, delays and syncs killed",
        .enabled(if: LiveProcesses.toolsPresent, "needs openssl and curl"), arguments: Database.allCases)
    func fiveHundredCheckIns(database: Database) async throws {
        try await syncThroughFaults(
            scans: 500, database: database, plan: Self.plan(seed: 500), rounds: 150, killEvery: 4)
    }

    /// One scan at a door.
    struct DoorScan {
        var door: Int
        var guest: GuestID
        var at: Date
    }

    /// `count` scans at two doors, interleaved in time (about 1.25 s apart, with milliseconds), each door's
    /// guests in their own shuffled order. The doors' guests overlap, so some guests are scanned at both and
    /// either door may have scanned them first.
    static func scans(_ count: Int, roster: [GuestID], seed: UInt64) -> [DoorScan] {
        var generator = SplitMix64(seed: seed)
        let counts = [count / 2, count - count / 2]
        let pool = Array(roster.prefix(min(roster.count, count - count / 4)))
        var guests = [Array(pool.prefix(counts[0])), Array(pool.suffix(counts[1]))].map {
            $0.shuffled(using: &generator)
        }
        let doors = (Array(repeating: 0, count: counts[0]) + Array(repeating: 1, count: counts[1]))
            .shuffled(using: &generator)
        let base = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 3 * 3600).rounded())
        return doors.enumerated().map { i, door in
            let at = base.addingTimeInterval(Double(i) * 1.25 + Double(i * 7919 % 250) / 1000)
            return DoorScan(door: door, guest: guests[door].removeFirst(), at: at)
        }
    }

    /// A time as whole milliseconds since 1970, the API's precision.
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    func syncThroughFaults(
        scans count: Int, database: Database, plan: FaultPlan, rounds: Int, killEvery: Int? = nil
    ) async throws {
        let started = ContinuousClock.now
        let postgres = database == .postgres ? try await LivePostgres.makeDatabase() : nil
        let server = try await EndToEndSyncTests.server(postgres: postgres)
        defer { server.stopWithoutWaiting() }
        let proxy = try FaultProxy(serverPort: server.port, plan: plan)
        defer { proxy.stop() }
        let proxyURL = "https://127.0.0.1:\(proxy.port)"
        var doors: [LiveKioskFolder] = []
        for door in ["North", "South"] {
            doors.append(try await LiveKioskFolder(door: door, server: server, serverURL: proxyURL))
        }
        // Enrolled straight at the server; from then on kiosk.conf's server, the proxy, is used.
        var devices: [String] = []
        for door in doors { devices.append(try await EndToEndSyncTests.enroll(door, server)) }
        let scans = Self.scans(count, roster: try EndToEndSyncTests.roster(), seed: plan.seed)
        let byDoor = doors.indices.map { door in scans.filter { $0.door == door } }
        for (door, kiosk) in zip(byDoor, doors) {
            try kiosk.scanOffline(door.map(\.guest), at: door.map(\.at))
        }

        // On threads of their own: the kills' waits (50 to 400 ms) must end on time, not when the cooperative
        // pool, which tests waiting for child processes block, gets round to them (beside the whole suite every
        // wait once ended after its sync had finished, and no sync was killed).
        let (failures, killed) = try await withTaskExecutorPreference(ThreadExecutor.testServers) {
            try await Self.syncUntilEmpty(doors, rounds: rounds, killEvery: killEvery, proxy: proxy)
        }
        let counts = proxy.counts
        print(
            "FaultProxy (\(database), \(count) scans, \(ContinuousClock.now - started)): \(counts); "
                + "\(killed) syncs killed")
        #expect(counts.requestsDropped > 0 && counts.responsesDropped > 0, "\(counts)")
        #expect(counts.requestsCut > 0 && counts.responsesCut > 0, "\(counts)")
        #expect(counts.delayedReads > 0, "\(counts)")
        #expect(counts.unpromptedServerRecords == 0, "the proxy may have taken session tickets for responses")
        #expect(killEvery == nil || killed > 0, "no sync was killed while it ran")
        let misread = failures.filter { !$0.contains("could not be reached") }
        #expect(misread.isEmpty, "a lost connection is reported as the server out of reach: \(misread.prefix(3))")

        let lines = try await EndToEndSyncTests.export(server)
        let events = lines.filter { $0.record == "check_in_event" }
        #expect(events.count == count, "one check-in event per scan")
        #expect(Set(events.map { "\($0.deviceId) \($0.sequence)" }).count == events.count, "no key twice")
        #expect(events.allSatisfy { $0.outcome != "rejected" }, "\(events.filter { $0.outcome == "rejected" })")
        for (door, device) in zip(byDoor, devices) {
            let arrived = events.filter { $0.deviceId == device }
            #expect(arrived.map(\.guestId) == door.map(\.guest.text), "\(device): in scan order")
            #expect(arrived.map { Self.milliseconds($0.scannedAt) } == door.map { Self.milliseconds($0.at) })
            #expect(arrived.map(\.sequence) == arrived.map(\.sequence).sorted())
        }

        let checkIns = lines.filter { $0.record == "check_in" }
        let earliest = Dictionary(grouping: scans, by: \.guest.text).mapValues { $0.min { $0.at < $1.at }! }
        #expect(checkIns.count == earliest.count, "one check-in per guest")
        for checkIn in checkIns {
            let first = try #require(earliest[checkIn.guestId])
            #expect(
                Self.milliseconds(checkIn.scannedAt) == Self.milliseconds(first.at)
                    && checkIn.deviceId == devices[first.door],
                "\(checkIn.guestId): the earliest scan wins")
        }
        for kiosk in doors {
            let status = try await kiosk.kioskctl(["status"])
            #expect(status.out.contains("sync failures: 0"), "\(status.out)")
        }
    }

    /// Runs `kioskctl sync` at each door in turn until both queues are empty; every `killEvery`-th run is
    /// killed (SIGKILL) 50 to 400 ms in, mid-upload or mid-answer. Returns the failed runs' standard error
    /// and how many runs were killed before they ended. Records an issue if `rounds` are not enough.
    static func syncUntilEmpty(
        _ doors: [LiveKioskFolder], rounds: Int, killEvery: Int?, proxy: FaultProxy
    ) async throws -> (failures: [String], killed: Int) {
        var failures: [String] = []
        var killed = 0
        var runs = 0
        var generator = SplitMix64(seed: proxy.plan.seed)
        for _ in 0..<rounds {
            var pending = 0
            for kiosk in doors where try kiosk.pending() > 0 {
                runs += 1
                // The first run is killed, then every killEvery-th: a sync that meets few faults empties its
                // queue in two or three runs, which a kill on every fourth alone could all miss.
                if let killEvery, (runs - 1) % killEvery == 0 {
                    if try await killedMidSync(kiosk, after: .milliseconds(Int.random(in: 50...400, using: &generator)))
                    {
                        killed += 1
                    }
                } else {
                    let run = try await kiosk.kioskctl(["sync"])
                    if run.status != 0 { failures.append(run.err) }
                }
                pending += try kiosk.pending()
            }
            if pending == 0 { return (failures, killed) }
        }
        let left = try doors.map { "\($0.door) \(try $0.pending())" }.joined(separator: ", ")
        let message =
            "after \(rounds) rounds of kioskctl sync through the proxy still pending: \(left); proxy: \(proxy.counts); "
            + "last failures: \(failures.suffix(3))"
        Issue.record("\(message)")
        return (failures, killed)
    }

    /// Starts `kioskctl sync` and kills it after `delay`; whether it was still running.
    static func killedMidSync(_ kiosk: LiveKioskFolder, after delay: Duration) async throws -> Bool {
        let sync = try ChildProcess.start("kioskctl", ["sync", "--config", "kiosk.conf"], in: kiosk.folder)
        try await Task.sleep(for: delay)
        kill(sync.processIdentifier, SIGKILL)
        await sync.waitUntilExit()
        return sync.terminationReason == .uncaughtSignal
    }
}
