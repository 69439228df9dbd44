import Foundation
import KioskCore
import KioskStore
import PassFormat
import TestSupport
import Testing
import WireAPI

/// One line of `checkin-server export`.
struct ExportedLine: Decodable {
    var record: String
    var guestId: String
    var deviceId: String
    var sequence: Int64
    var door: String
    var scannedAt: Date
    var correctedAt: Date
    var receivedAt: Date
    var outcome: String?
    var kind: String?
    var reverts: ItemKey?
}

/// A kiosk in its own folder: kiosk.conf naming the live server (or `serverURL`, a proxy in front of it), its
/// database with the test roster.
struct LiveKioskFolder {
    let folder: String
    let door: String

    init(door: String, server: LiveServer, serverURL: String? = nil) async throws {
        self.door = door
        folder = LiveProcesses.temporaryFolder()
        try FileManager.default.copyItem(atPath: server.folder + "/ca.pem", toPath: folder + "/ca.pem")
        try TestDatabaseKey.write(to: folder + "/" + TestDatabaseKey.relativePath)
        let conf = """
            door = \(door)
            tenant = 1
            event = 1
            trusted_key = 1 \(LiveProcesses.packageRoot)/test-images/keys/issuer-1.pub.pem
            database = kiosk.db
            database_key_file = \(TestDatabaseKey.relativePath)
            server = \(serverURL ?? server.url)
            server_ca = ca.pem
            sync_interval = 1s
            lan_sync = off
            """
        try conf.write(toFile: folder + "/kiosk.conf", atomically: true, encoding: .utf8)
        let imported = try await LiveProcesses.run(
            "kioskctl",
            [
                "roster", "import", "--config", "kiosk.conf", "--csv",
                LiveProcesses.packageRoot + "/test-images/roster.csv",
            ],
            in: folder)
        try #require(imported.status == 0, "\(imported.err)")
    }

    /// The kiosk's database, opened under its key.
    func openStore() throws -> SQLiteDoorStore {
        try SQLiteDoorStore(
            path: folder + "/kiosk.db", mode: .openExisting,
            key: try DatabaseKey.load(
                file: folder + "/" + TestDatabaseKey.relativePath, databasePath: folder + "/kiosk.db"))
    }

    func kioskctl(_ arguments: [String]) async throws -> (status: Int32, out: String, err: String) {
        try await LiveProcesses.run("kioskctl", arguments + ["--config", "kiosk.conf"], in: folder)
    }

    /// Scans made at the door while the server is away: the door's own write (check-in, queue row, audit
    /// row in one transaction), with the scans' own times.
    func scanOffline(_ guests: [GuestID], at times: [Date]) throws {
        let store = try openStore()
        for (guest, at) in zip(guests, times) {
            let checkIn = CheckIn(guest: guest, event: EventID(1), door: door, at: at, arrived: 1, source: .camera)
            let attempt = ScanAttempt(
                at: at, door: door, source: .camera, payload: guest.text, guest: guest, verdict: "admitted",
                reason: "valid pass")
            #expect(try store.record(checkIn: checkIn, attempt: attempt) == .recorded)
        }
    }

    /// Starts the live `kiosk` on this folder's kiosk.conf, standard input empty (or `keyboard`); its standard
    /// error (the text display) goes to `screen` if given.
    func startKiosk(screen: Pipe? = nil, keyboard: Pipe? = nil) throws -> Process {
        try ChildProcess.start("kiosk", ["--config", "kiosk.conf"], in: folder, input: keyboard, errors: screen)
    }

    /// The live kiosk gets no frames (an empty replay folder) and shows the text display: it runs until
    /// SIGTERM, driven by its keyboard and its sync worker.
    func runWithoutFrames() throws {
        try FileManager.default.createDirectory(atPath: folder + "/frames", withIntermediateDirectories: true)
        var conf = try String(contentsOfFile: folder + "/kiosk.conf", encoding: .utf8)
        conf += "\nsource = replay:frames\ndisplay = text\n"
        try conf.write(toFile: folder + "/kiosk.conf", atomically: true, encoding: .utf8)
    }

    func pending() throws -> Int {
        try openStore().pendingCount()
    }
}

@Suite("Sync end to end: a real checkin-server over HTTPS, kioskctl enroll and sync", .serialized)
struct EndToEndSyncTests {
    /// The active guests of test-images/roster.csv (a cancelled one would be rejected by the server).
    static func roster() throws -> [GuestID] {
        let csv = try String(contentsOfFile: LiveProcesses.packageRoot + "/test-images/roster.csv", encoding: .utf8)
        return csv.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 5, fields[4] == "active" else { return nil }
            return GuestID(text: String(fields[0]))
        }
    }

    static func export(_ server: LiveServer) async throws -> [ExportedLine] {
        let out = try await server.admin(["export", "--event", "1"])
        return try out.split(separator: "\n").map {
            try APICoding.decoder().decode(ExportedLine.self, from: Data($0.utf8))
        }
    }

    /// A server with one tenant, one event (id 1) and the test roster, on SQLite or on the PostgreSQL database
    /// at `postgres`; returns it started.
    static func server(postgres: String? = nil) async throws -> LiveServer {
        let server = LiveServer(folder: LiveProcesses.temporaryFolder(), postgres: postgres)
        try await LiveProcesses.makeCertificates(in: server.folder)
        await #expect(try server.admin(["create-tenant", "--name", "Acme"]) == "1")
        await #expect(
            try server.admin([
                "create-event", "--tenant", "1", "--name", "Gala", "--starts", "2020-01-01T00:00:00Z",
                "--ends", "2036-12-01T23:00:00Z",
            ]) == "1")
        _ = try await server.admin([
            "import-guests", "--event", "1", "--csv", LiveProcesses.packageRoot + "/test-images/roster.csv",
        ])
        try await server.start()
        return server
    }

    static func enroll(_ kiosk: LiveKioskFolder, _ server: LiveServer) async throws -> String {
        let code = try await server.admin(["enrolment-code", "--event", "1"])
        let enrolled = try await kiosk.kioskctl([
            "enroll", "--server", server.url, "--code", code, "--ca-file", "ca.pem",
        ])
        try #require(enrolled.status == 0, "\(enrolled.err)")
        return enrolled.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(
        "check-ins made offline reach the server once each, in scan order, with their own times",
        .enabled(if: LiveProcesses.toolsPresent, "needs openssl and curl"))
    func offlineCheckInsArriveOnce() async throws {
        let server = try await Self.server()
        defer { server.stopWithoutWaiting() }
        let north = try await LiveKioskFolder(door: "North", server: server)
        let deviceID = try await Self.enroll(north, server)
        #expect(deviceID.hasPrefix("dev_"), "\(deviceID)")

        // The server goes away; the door keeps admitting.
        await server.stop()
        let guests = Array(try Self.roster().prefix(10))
        let base = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 3600).rounded())
        let times = guests.indices.map { base.addingTimeInterval(Double($0) * 7.5) }
        try north.scanOffline(guests, at: times)
        let offline = try await north.kioskctl(["sync"])
        #expect(offline.status != 0)
        #expect(offline.err.contains("could not be reached"), "\(offline.err)")
        #expect(try north.pending() == 10, "nothing leaves the queue without the server's answer")
        let offlineStatus = try await north.kioskctl(["status"])
        #expect(offlineStatus.out.contains("10 pending sync"), "\(offlineStatus.out)")
        let offlineFigures = try await Self.statusJSON(north)
        #expect(offlineFigures.pending == 10 && offlineFigures.checkedIn == 10)
        #expect(offlineFigures.oldestPendingAt == times[0])
        #expect(offlineFigures.scansByVerdict == ["admitted": 10])
        // The state is by last contact, as the text's: the enrolment a moment ago is within the window.
        #expect(offlineFigures.sync.state == "online" && offlineFigures.sync.deviceId == deviceID)

        try await server.start()
        let synced = try await north.kioskctl(["sync"])
        #expect(synced.status == 0, "\(synced.err)")
        #expect(
            synced.out.contains("sent 10 in 1 batches: 10 confirmed, 0 superseded, 0 rejected; 0 pending"),
            "\(synced.out)")
        let checkIns = try await Self.export(server).filter { $0.record == "check_in" }.sorted {
            $0.correctedAt < $1.correctedAt
        }
        #expect(checkIns.map(\.guestId) == guests.map(\.text), "each once, in scan order")
        #expect(checkIns.map(\.scannedAt) == times, "the scans' own times")
        #expect(checkIns.allSatisfy { $0.deviceId == deviceID && $0.door == "North" })

        let again = try await north.kioskctl(["sync"])
        #expect(again.out.contains("sent 0 in 0 batches"), "\(again.out)")
        let status = try await north.kioskctl(["status"])
        #expect(status.out.contains("sync: online to \(server.url) as \(deviceID)"), "\(status.out)")
        #expect(status.out.contains("sync failures: 0, superseded scans: 0"), "\(status.out)")
        let figures = try await Self.statusJSON(north)
        #expect(figures.pending == 0 && figures.oldestPendingAt == nil && figures.sync.state == "online")
        #expect(figures.sync.failures == 0 && figures.sync.superseded == 0 && figures.audit.count == 10)
    }

    /// `kioskctl status --json`, read as a machine would.
    struct StatusFigures: Decodable {
        struct Sync: Decodable {
            var state: String
            var deviceId: String?
            var failures: Int
            var superseded: Int
        }
        struct Entry: Decodable { var verdict: String }
        var pending: Int
        var checkedIn: Int
        var oldestPendingAt: Date?
        var scansByVerdict: [String: Int]
        var sync: Sync
        var personalDataPurgeAt: Date?
        var personalDataPurgedAt: Date?
        var audit: [Entry]
    }

    static func statusJSON(_ kiosk: LiveKioskFolder) async throws -> StatusFigures {
        let r = try await kiosk.kioskctl(["status", "--json"])
        try #require(r.status == 0, "\(r.err)")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(StatusFigures.self, from: Data(r.out.utf8))
    }

    /// Running `kioskctl enroll` again on an enrolled kiosk (a new code, the same server) renews its device: the
    /// same id, a new token (the old one stops working), and no second device left behind as a silent door that
    /// raises offline alerts.
    @Test(
        "enrolling an enrolled kiosk again renews its device, it makes no second one",
        .enabled(if: LiveProcesses.toolsPresent, "needs openssl and curl"))
    func enrollingAgainMakesNoGhostDevice() async throws {
        let server = try await Self.server()
        defer { server.stopWithoutWaiting() }
        let south = try await LiveKioskFolder(door: "South", server: server)
        let first = try await Self.enroll(south, server)
        let oldToken = try #require(try south.openStore().enrolment()?.token)
        let second = try await Self.enroll(south, server)
        #expect(second == first, "the same device")
        let listed = try await server.admin(["devices", "--tenant", "1"]).split(separator: "\n")
        #expect(listed.count == 1 && listed[0].hasPrefix(first) && listed[0].hasSuffix("active"), "\(listed)")
        #expect(try south.openStore().enrolment()?.token != oldToken)
        let synced = try await south.kioskctl(["sync"])
        #expect(synced.status == 0, "\(synced.err)")

        // Another kiosk's folder with its own enrolment is another device.
        let north = try await LiveKioskFolder(door: "North", server: server)
        #expect(try await Self.enroll(north, server) != first)
        #expect(try await server.admin(["devices", "--tenant", "1"]).split(separator: "\n").count == 2)
    }

    /// The organizer's monitor is not a round behind: a kiosk just enrolled has been seen (its enrolment
    /// fetched the roster), and right after a sync that uploaded five check-ins the server knows 0 are pending
    /// (the heartbeat went before the upload and said 5).
    @Test(
        "the server knows the kiosk's state after an exchange, not before it",
        .enabled(if: LiveProcesses.toolsPresent, "needs openssl and curl"))
    func theMonitorIsNotARoundBehind() async throws {
        let server = try await Self.server()
        defer { server.stopWithoutWaiting() }
        let north = try await LiveKioskFolder(door: "North", server: server)
        let deviceID = try await Self.enroll(north, server)
        func listed() async throws -> [String] {
            let out = try await server.admin(["devices", "--tenant", "1"])
            let line = out.split(separator: "\n").first { $0.hasPrefix(deviceID) } ?? ""
            return line.split(separator: "\t").map(String.init)
        }
        let enrolled = try await listed()
        #expect(enrolled.count == 6 && enrolled[3] != "never" && enrolled[4] == "0", "\(enrolled)")

        let guests = Array(try Self.roster().prefix(5))
        try north.scanOffline(guests, at: guests.indices.map { Date().addingTimeInterval(Double($0 - 10)) })
        let synced = try await north.kioskctl(["sync"])
        #expect(synced.status == 0, "\(synced.err)")
        let after = try await listed()
        #expect(after.count == 6 && after[4] == "0", "pending as of after the upload: \(after)")
    }

    @Test(
        "answers lost or a sync killed mid-upload: sent again, nothing duplicated, nothing lost",
        .enabled(if: LiveProcesses.toolsPresent, "needs openssl and curl"))
    func resendAfterLostAnswersAndSIGKILL() async throws {
        let server = try await Self.server()
        defer { server.stopWithoutWaiting() }
        let north = try await LiveKioskFolder(door: "North", server: server)
        _ = try await Self.enroll(north, server)
        let roster = try Self.roster()
        let base = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 7200).rounded())
        let first = Array(roster.prefix(20))
        try north.scanOffline(first, at: first.indices.map { base.addingTimeInterval(Double($0)) })

        // The answers are lost: the database as it was before the upload comes back (all 20 still queued).
        let db = north.folder + "/kiosk.db"
        try FileManager.default.copyItem(atPath: db, toPath: db + ".before")
        await #expect(try north.kioskctl(["sync"]).out.contains("20 confirmed"))
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
        try FileManager.default.moveItem(atPath: db + ".before", toPath: db)
        #expect(try north.pending() == 20)
        let resent = try await north.kioskctl(["sync"])
        #expect(resent.out.contains("sent 20 in 1 batches: 20 confirmed"), "\(resent.out)")

        // 150 more, and the sync is killed while it uploads.
        let more = Array(roster[20..<170])
        try north.scanOffline(more, at: more.indices.map { base.addingTimeInterval(Double($0)) })
        _ = try await FaultProxySyncTests.killedMidSync(north, after: .milliseconds(Int.random(in: 20...400)))
        let after = try await north.kioskctl(["sync"])
        #expect(after.status == 0, "\(after.err)")
        #expect(try north.pending() == 0)

        let lines = try await Self.export(server)
        let checkIns = lines.filter { $0.record == "check_in" }.sorted { $0.correctedAt < $1.correctedAt }
        #expect(checkIns.count == 170)
        #expect(Set(checkIns.map(\.guestId)) == Set((first + more).map(\.text)), "nothing lost")
        #expect(Set(checkIns.map(\.sequence)).count == 170, "nothing duplicated")
        #expect(lines.filter { $0.record == "check_in_event" }.count == 170, "one check-in event per scan")
    }

    @Test(
        "two doors admit one guest offline: one check-in, and the later door learns it was superseded",
        .enabled(if: LiveProcesses.toolsPresent, "needs openssl and curl"))
    func twoDoorsOneGuest() async throws {
        let server = try await Self.server()
        defer { server.stopWithoutWaiting() }
        let north = try await LiveKioskFolder(door: "North", server: server)
        let south = try await LiveKioskFolder(door: "South", server: server)
        let northID = try await Self.enroll(north, server)
        let southID = try await Self.enroll(south, server)
        #expect(northID != southID)
        await server.stop()
        let guest = try Self.roster()[42]
        let base = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 600).rounded())
        try north.scanOffline([guest], at: [base])
        try south.scanOffline([guest], at: [base.addingTimeInterval(30)])

        try await server.start()
        await #expect(try north.kioskctl(["sync"]).out.contains("1 confirmed, 0 superseded"))
        let southSync = try await south.kioskctl(["sync"])
        #expect(southSync.out.contains("0 confirmed, 1 superseded, 0 rejected; 0 pending"), "\(southSync.out)")

        let lines = try await Self.export(server)
        let checkIns = lines.filter { $0.record == "check_in" }
        #expect(checkIns.count == 1)
        #expect(checkIns.first?.deviceId == northID && checkIns.first?.scannedAt == base)
        #expect(
            lines.contains { $0.record == "check_in_event" && $0.deviceId == southID && $0.outcome == "superseded" })
        let status = try await south.kioskctl(["status"])
        #expect(status.out.contains("superseded scans: 1"), "\(status.out)")
        #expect(status.out.contains("\(guest.text): checked in at North"), "\(status.out)")
    }
}
