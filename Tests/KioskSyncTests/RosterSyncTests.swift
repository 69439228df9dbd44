import DedicatedThreads
import Foundation
import KioskCore
import KioskStore
import KioskSync
import PassFormat
import Synchronization
import TestSupport
import Testing
import WireAPI

/// A roster source that passes pages through from the real server until `failAfter` of them have been
/// answered, then fails as a cut network would: the first download is interrupted part-way. Only answered
/// requests count and are listed: a request the loaded server did not answer in time fails as it came, and the
/// test tries again (`refreshThroughRealFailures`).
final class CuttingRosterSource: RosterSource {
    static let cutMessage = "connection cut by the test"
    let inner: any RosterSource
    let failAfter: Int
    /// The requests the server answered, in order.
    let requests = Mutex<[String]>([])
    /// The real failures met (not the cut).
    let failures = Mutex<[String]>([])

    init(_ inner: any RosterSource, failAfter: Int) {
        self.inner = inner
        self.failAfter = failAfter
    }

    func rosterPage(event: UInt32, page: String?, changesSince: String?) async throws(SyncError)
        -> CheckinClient.Exchange<RosterPage>
    {
        let name = changesSince == nil ? "page \(page ?? "first")" : "changes"
        guard requests.withLock({ $0.count < failAfter }) else {
            throw SyncError(
                kind: .unreachable, operation: "downloading the roster", message: Self.cutMessage, advice: "-")
        }
        do {
            let answer = try await inner.rosterPage(event: event, page: page, changesSince: changesSince)
            requests.withLock { $0.append(name) }
            return answer
        } catch {
            failures.withLock { $0.append("\(name): \(error)") }
            throw error
        }
    }

    /// Refreshes until the cut (returns nil) or success (returns the report), trying again after a real failure
    /// (a timeout of the loaded machine: the kiosk's sync worker would try again too), at most 5 times.
    func refreshThroughRealFailures(_ downloader: RosterDownloader, store: SQLiteDoorStore) async throws
        -> RosterReport?
    {
        for _ in 0..<5 {
            do {
                return try await downloader.refresh(store: store)
            } catch let error as SyncError where error.message == Self.cutMessage {
                return nil
            } catch let error as SyncError where error.isTransient {
                continue
            }
        }
        Issue.record("5 real failures in a row: \(failures.withLock { $0 })")
        return nil
    }
}

/// The seeds' roster probes against a real `checkin-server` over HTTPS: resumable first download, an incomplete
/// roster blocks scans, deltas bring cancellations, walk-ins and other doors' check-ins, merge protection, the
/// version gate, and a live kiosk deciding a walk-in's scan again after the refresh it asked for.
@Suite("Roster to the kiosk: a real checkin-server over HTTPS", .serialized)
struct RosterSyncTests {
    /// A server whose event 1 has `guests` generated guests (ids in the CSV) plus the test roster.
    static func server(guests: Int, minimumKioskVersion: String? = nil) async throws -> (LiveServer, [GuestID]) {
        let server = LiveServer(folder: LiveProcesses.temporaryFolder())
        try await LiveProcesses.makeCertificates(in: server.folder)
        _ = try await LiveProcesses.admin(["create-tenant", "--name", "Acme"], in: server.folder)
        _ = try await LiveProcesses.admin(
            [
                "create-event", "--tenant", "1", "--name", "Gala", "--starts", "2020-01-01T00:00:00Z",
                "--ends", "2036-12-01T23:00:00Z",
            ] + (minimumKioskVersion.map { ["--minimum-kiosk-version", $0] } ?? []), in: server.folder)
        var generator = SystemRandomNumberGenerator()
        let ids = (0..<guests).map { _ in GuestID.random(using: &generator) }
        let csv =
            "guest_id,name,email\n"
            + ids.enumerated().map { "\($1.text),Guest \($0),g\($0)@example.org" }
            .joined(separator: "\n")
        _ = try await LiveProcesses.admin(
            ["import-guests", "--event", "1", "--csv", LiveProcesses.packageRoot + "/test-images/roster.csv"],
            in: server.folder)
        if guests > 0 {
            try csv.write(toFile: server.folder + "/many.csv", atomically: true, encoding: .utf8)
            _ = try await LiveProcesses.admin(
                ["import-guests", "--event", "1", "--csv", server.folder + "/many.csv"], in: server.folder)
        }
        try await server.start()
        return (server, ids)
    }

    static func store(_ kiosk: LiveKioskFolder) throws -> SQLiteDoorStore {
        try kiosk.openStore()
    }

    @Test(
        "the first download, cut at half, resumes from the last page applied; scans say roster_incomplete until then",
        .enabled(if: LiveProcesses.toolsPresent, "needs openssl and curl"))
    func resumableDownload() async throws {
        // On threads of their own: beside the whole suite, the 2-thread pool is starved by tests waiting for
        // child processes (see ThreadExecutor).
        try await withTaskExecutorPreference(ThreadExecutor.testServers) { try await resumableDownloadSteps() }
    }

    func resumableDownloadSteps() async throws {
        let (server, ids) = try await Self.server(guests: 1_000)
        defer { server.stopWithoutWaiting() }
        let kiosk = try await LiveKioskFolder(door: "North", server: server)
        let code = try await LiveProcesses.admin(["enrolment-code", "--event", "1"], in: server.folder)
        let store = try Self.store(kiosk)
        let enrolment = try await Enrolling.enroll(
            store: store, serverURL: server.url, code: code, door: "North", event: EventID(1),
            caFile: kiosk.folder + "/ca.pem")
        let total = 1_000 + (try EndToEndSyncTests.rosterSize())
        #expect(try store.incompleteRoster(event: EventID(1)) == RosterProgress(fetched: 0, total: nil))

        try await CheckinClient.withClient(
            serverURL: server.url, token: enrolment.token, caFile: kiosk.folder + "/ca.pem"
        ) { client in
            // Pages of 500: the cut comes after the first page (about half of the roster).
            let cut = CuttingRosterSource(client, failAfter: 1)
            let downloader = RosterDownloader(
                source: cut, tenant: enrolment.tenant, event: EventID(1), clock: SystemSyncClock())
            let uncut = try await cut.refreshThroughRealFailures(downloader, store: store)
            #expect(uncut == nil, "the download was not cut")
            #expect(
                try store.incompleteRoster(event: EventID(1)) == RosterProgress(fetched: 500, total: total),
                "\(String(describing: try? store.rosterSyncState(event: EventID(1)))); real failures: \(cut.failures.withLock { $0 })"
            )

            // Resumed: only the pages not yet applied, then one delta.
            let resumed = CuttingRosterSource(client, failAfter: 100)
            let report = try await resumed.refreshThroughRealFailures(
                RosterDownloader(
                    source: resumed, tenant: enrolment.tenant, event: EventID(1), clock: SystemSyncClock()),
                store: store)
            let asked = resumed.requests.withLock { $0 }
            #expect(
                asked.count == (total + 499) / 500 - 1 + 1,
                "\(asked); real failures: \(resumed.failures.withLock { $0 })")
            #expect(!asked.contains("page first"))
            #expect(report?.state?.complete == true)
        }
        #expect(try store.incompleteRoster(event: EventID(1)) == nil)
        for id in ids {
            guard case .admissible = try store.lookUp(guest: id, event: EventID(1)) else {
                Issue.record("guest \(id.text) missing after the resumed download")
                return
            }
        }
        let status = try await kiosk.kioskctl(["status"])
        #expect(status.out.contains("roster: complete"), "\(status.out)")
    }

    @Test(
        "a delta cancels a guest, adds a walk-in and brings another door's check-in; a queued guest keeps its local check-in until answered",
        .enabled(if: LiveProcesses.toolsPresent, "needs openssl and curl"))
    func deltas() async throws {
        let (server, _) = try await Self.server(guests: 0)
        defer { server.stopWithoutWaiting() }
        let north = try await LiveKioskFolder(door: "North", server: server)
        let south = try await LiveKioskFolder(door: "South", server: server)
        _ = try await EndToEndSyncTests.enroll(north, server)
        _ = try await EndToEndSyncTests.enroll(south, server)
        let guests = try EndToEndSyncTests.roster()
        let event = EventID(1)
        let (cancelled, shared, northOnly) = (guests[0], guests[1], guests[2])
        let base = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 600).rounded())

        // North admits two guests and syncs; South admits `shared` later, offline, and has not synced.
        try north.scanOffline([shared, northOnly], at: [base, base + 1])
        await #expect(try north.kioskctl(["sync"]).status == 0)
        try south.scanOffline([shared], at: [base + 30])
        _ = try await LiveProcesses.admin(
            ["cancel-guest", "--event", "1", "--guest", cancelled.text], in: server.folder)
        let walkIn = try await #require(
            GuestID(
                text: try LiveProcesses.admin(
                    ["add-guest", "--event", "1", "--name", "Wanda Walkin", "--note", "paid at the door"],
                    in: server.folder)))

        let refreshed = try await south.kioskctl(["roster", "refresh"])
        #expect(refreshed.status == 0, "\(refreshed.err)")
        let store = try Self.store(south)
        #expect(try store.lookUp(guest: cancelled, event: event).isCancelled)
        guard case .admissible(let wanda) = try store.lookUp(guest: walkIn, event: event) else {
            Issue.record("the walk-in did not arrive")
            return
        }
        #expect(wanda.name == "Wanda Walkin" && wanda.notes.contains("paid at the door"))
        guard case .checkedIn(_, let other) = try store.lookUp(guest: northOnly, event: event) else {
            Issue.record("North's check-in did not arrive at South")
            return
        }
        // The server's time is the offset-corrected scan time (the offset here is a few milliseconds).
        #expect(other.door == "North" && abs(other.at.timeIntervalSince(base + 1)) < 1)
        // Merge protection: South's own queued check-in of `shared` stays as it is.
        guard case .checkedIn(_, let mine) = try store.lookUp(guest: shared, event: event) else {
            Issue.record("South's queued check-in was overwritten")
            return
        }
        #expect(mine.door == "South" && mine.at == base + 30)
        #expect(try store.pendingCount() == 1)

        // Uploaded: the server keeps North's earlier scan, and South's kiosk now says where and when, and that
        // it admitted the guest too (a double entry).
        await #expect(try south.kioskctl(["sync"]).status == 0)
        guard case .doubleEntry(_, let winner) = try store.lookUp(guest: shared, event: event) else {
            Issue.record("no double entry after the sync")
            return
        }
        #expect(winner.door == "North" && abs(winner.at.timeIntervalSince(base)) < 1)
        #expect(try store.pendingCount() == 0)
    }

    @Test(
        "the earlier scan uploaded second: the door whose admit it displaced learns by the next delta that its scan was a double entry",
        .enabled(if: LiveProcesses.toolsPresent, "needs openssl and curl"))
    func displacedAdmitBecomesADoubleEntryAtItsDoor() async throws {
        try await withTaskExecutorPreference(LiveProcesses.waiting) { try await displacedAdmitSteps() }
    }

    func displacedAdmitSteps() async throws {
        let (server, _) = try await Self.server(guests: 0)
        defer { server.stopWithoutWaiting() }
        let north = try await LiveKioskFolder(door: "North", server: server)
        let south = try await LiveKioskFolder(door: "South", server: server)
        let northDevice = try await EndToEndSyncTests.enroll(north, server)
        _ = try await EndToEndSyncTests.enroll(south, server)
        let shared = try EndToEndSyncTests.roster()[1]
        let event = EventID(1)
        let base = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 600).rounded())

        // Both offline: South admits first (by the clock), North 30 s later; North's upload arrives first.
        try south.scanOffline([shared], at: [base])
        try north.scanOffline([shared], at: [base + 30])
        let northSync = try await north.kioskctl(["sync"])
        #expect(northSync.out.contains("1 confirmed"), "\(northSync.out)")
        let southSync = try await south.kioskctl(["sync"])
        #expect(southSync.out.contains("1 confirmed"), "\(southSync.out)")

        // On the server North's scan is superseded, with South's door and time.
        let lines = try await EndToEndSyncTests.export(server).filter { $0.guestId == shared.text }
        let northScan = lines.first { $0.record == "check_in_event" && $0.deviceId == northDevice }
        #expect(northScan?.outcome == "superseded", "\(lines)")
        #expect(lines.first { $0.record == "check_in" }?.door == "South")
        let report = try await server.admin(["double-entries", "--event", "1"])
        #expect(report.contains("South") && report.contains("North") && report.contains("30"), "\(report)")

        // North's next roster refresh brings South's check-in: North's admit is a double entry there.
        await #expect(try north.kioskctl(["roster", "refresh"]).status == 0)
        let store = try Self.store(north)
        guard case .doubleEntry(_, let winner) = try store.lookUp(guest: shared, event: event) else {
            Issue.record(
                "North does not know its admit was superseded: \(try store.lookUp(guest: shared, event: event))")
            return
        }
        #expect(winner.door == "South" && abs(winner.at.timeIntervalSince(base)) < 1)
        let status = try await north.kioskctl(["status"])
        #expect(status.out.contains("superseded scans: 1"), "\(status.out)")
        #expect(status.out.contains("checked in at South"), "\(status.out)")
        // South's own check-in is no double entry there.
        guard case .checkedIn(_, let own) = try Self.store(south).lookUp(guest: shared, event: event) else {
            Issue.record("South lost its check-in")
            return
        }
        #expect(own.door == "South")
    }

    @Test(
        "an event that requires a newer kiosk: the roster is refused (update required) and the queue still goes up",
        .enabled(if: LiveProcesses.toolsPresent, "needs openssl and curl"))
    func versionGate() async throws {
        let (server, _) = try await Self.server(guests: 0, minimumKioskVersion: "99.0.0")
        defer { server.stopWithoutWaiting() }
        let north = try await LiveKioskFolder(door: "North", server: server)
        _ = try await EndToEndSyncTests.enroll(north, server)
        let guests = Array(try EndToEndSyncTests.roster().prefix(3))
        let base = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 60).rounded())
        try north.scanOffline(guests, at: [base, base + 1, base + 2])
        let sync = try await north.kioskctl(["sync"])
        #expect(sync.status != 0)
        #expect(sync.err.contains("update"), "\(sync.err)")
        #expect(try north.pending() == 0)
        await #expect(try EndToEndSyncTests.export(server).filter { $0.record == "check_in" }.count == 3)
    }

    @Test(
        "a live kiosk: a walk-in added after the kiosk's download is admitted on the first scan",
        .enabled(if: LiveProcesses.toolsPresent, "needs openssl and curl"))
    func walkInAdmittedOnFirstScan() async throws {
        let (server, _) = try await Self.server(guests: 0)
        defer { server.stopWithoutWaiting() }
        let east = try await LiveKioskFolder(door: "East", server: server)
        _ = try await EndToEndSyncTests.enroll(east, server)
        let walkIn = try await LiveProcesses.admin(
            ["add-guest", "--event", "1", "--name", "Late Larry"], in: server.folder)
        // A key of this test's own, trusted by this kiosk, signs the walk-in's pass.
        await #expect(
            try LiveProcesses.run("kioskctl", ["keygen", "--out", "issuer", "--key-id", "2"], in: east.folder).status
                == 0)
        try FileManager.default.createDirectory(atPath: east.folder + "/frames", withIntermediateDirectories: true)
        let issued = try await LiveProcesses.run(
            "kioskctl",
            [
                "issue", "--key", "issuer.key.pem", "--key-id", "2", "--tenant", "1", "--event", "1", "--guest", walkIn,
                "--png", "frames/pass.png",
            ], in: east.folder)
        try #require(issued.status == 0, "\(issued.err)")
        var conf = try String(contentsOfFile: east.folder + "/kiosk.conf", encoding: .utf8)
        conf += "\ntrusted_key = 2 issuer.pub.pem\nsource = replay:frames\ndisplay = text\n"
        try conf.write(toFile: east.folder + "/kiosk.conf", atomically: true, encoding: .utf8)

        let kiosk = try east.startKiosk()
        defer { kiosk.terminateWithoutWaiting() }
        let guest = try #require(GuestID(text: walkIn))
        var admitted = false
        for _ in 0..<150 where !admitted {  // up to 15 s
            try await Task.sleep(for: .milliseconds(100))
            admitted = try Self.store(east).checkIns(event: EventID(1)).contains { $0.guest == guest }
        }
        #expect(admitted)
        let verdicts = try Self.store(east).auditLog(limit: 20).filter { $0.guest == guest }.map(\.verdict)
        #expect(verdicts.contains("not_in_roster") && verdicts.contains("admitted"), "\(verdicts)")
    }
}

extension RosterLookup {
    var isCancelled: Bool {
        if case .cancelled = self { return true }
        return false
    }
}

extension EndToEndSyncTests {
    /// Guests in test-images/roster.csv.
    static func rosterSize() throws -> Int {
        let csv = try String(contentsOfFile: LiveProcesses.packageRoot + "/test-images/roster.csv", encoding: .utf8)
        return csv.split(separator: "\n").count - 1
    }
}
