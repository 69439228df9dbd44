import Foundation
import KioskCore
import KioskStore
import PassFormat
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A chaos run that cannot go on (a process that does not start, a command that fails), with what it said.
struct ChaosFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The last `count` characters of a log file, for a failure message.
func chaosLogTail(_ path: String, _ count: Int = 1500) -> String {
    String(((try? String(contentsOfFile: path, encoding: .utf8)) ?? "(no log)").suffix(count))
}

/// The kiosk's log from where `code` was last typed in full (its screens and log lines after it), else its tail.
func chaosLog(_ path: String, after code: String, _ count: Int = 1500) -> String {
    let log = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "(no log)"
    guard let typed = log.range(of: "Manual entry: \(code)_", options: .backwards) else {
        return "(the code's full entry is not in the log) " + String(log.suffix(count))
    }
    return String(log[typed.lowerBound...].prefix(count))
}

/// A child process whose standard output and error go to a log file (nothing to drain: no pipe fills).
func chaosSpawn(
    _ executable: String, _ arguments: [String], in folder: String, log: String, keyboard: Pipe? = nil
) throws -> Process {
    _ = FileManager.default.createFile(atPath: log, contents: nil)
    guard let output = FileHandle(forWritingAtPath: log) else { throw ChaosFailure("cannot write \(log)") }
    defer { try? output.close() }
    return try ChildProcess.start(executable, arguments, in: folder, input: keyboard, output: output, errors: output)
}

/// SIGKILL: no shutdown, no last commit; waits for the process to be gone.
func chaosKill(_ process: Process) {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
}

/// `checkin-server serve` processes over HTTPS on ephemeral ports (each start reads its port from its log), on the
/// SQLite database in `folder` or all on one PostgreSQL database; `slots` processes at most.
final class ChaosServer {
    let folder: String
    let postgres: String?
    private var processes: [Process?]
    private var ports: [Int?]
    private var starts = 0

    init(postgres: String?, slots: Int) throws {
        folder = LiveProcesses.temporaryFolder()
        self.postgres = postgres
        processes = Array(repeating: nil, count: slots)
        ports = Array(repeating: nil, count: slots)
        try ChildProcess.blocking { [folder] in try await TestCertificates.make(in: folder) }
    }

    var slots: Int { processes.count }
    var databaseArguments: [String] { postgres.map { ["--postgres", $0] } ?? [] }
    /// The ports of the processes running now.
    var livePorts: [Int] { ports.compactMap { $0 } }
    func isUp(_ slot: Int) -> Bool { processes[slot] != nil }

    /// Runs an admin command on the server's database; its standard output, trimmed.
    func admin(_ arguments: [String]) throws -> String {
        let r = try ChildProcess.runBlocking("checkin-server", arguments + databaseArguments, in: folder)
        guard r.status == 0 else {
            throw ChaosFailure("checkin-server \(arguments.joined(separator: " ")) exited \(r.status): \(r.err)")
        }
        return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts `serve` in `slot` on port 0 and waits (up to 60 s) until its log says where it listens.
    func start(_ slot: Int) throws {
        starts += 1
        let log = folder + "/serve-\(slot)-\(starts).log"
        let process = try chaosSpawn(
            "checkin-server",
            ["serve", "--port", "0", "--tls-certificate", "server.pem", "--tls-key", "server.key"]
                + databaseArguments, in: folder, log: log)
        var port: Int?
        _ = eventuallyBlocking(within: .seconds(60), every: .milliseconds(50)) {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: "listening on 127.0.0.1:") {
                port = Int(text[range.upperBound...].prefix { $0.isNumber })
            }
            return port != nil || !process.isRunning
        }
        guard let port else {
            chaosKill(process)
            throw ChaosFailure("checkin-server serve did not listen within 60 s; its log: \(chaosLogTail(log))")
        }
        processes[slot] = process
        ports[slot] = port
    }

    func kill(_ slot: Int) {
        guard let process = processes[slot] else { return }
        chaosKill(process)
        processes[slot] = nil
        ports[slot] = nil
    }

    func killAll() { for slot in 0..<slots { kill(slot) } }

    deinit { killAll() }
}

/// A live kiosk (`kiosk --config`) in its own folder: a text display, its keyboard a pipe from the test, frames
/// from a replay folder (empty but for walk-in passes), the server through the chaos proxy, sync every second.
final class ChaosDoor {
    let name: String
    let folder: String
    private let proxyURL: String
    private let walkInKey: String
    /// With the LAN on: the run's own multicast port (the doors link with each other on loopback, issue 23, and
    /// with no door of another test) and the server's `trusted_key` lines (its key signs the peer credentials).
    private let lan: (discoveryPort: Int, serverKeys: String)?
    private var process: Process?
    private var keyboard: FileHandle?
    private var starts = 0
    /// The replay folder of the next start, inside `folder`.
    var frames = "frames"
    /// The test's own connection to the door's database, opened when read and closed before each kill: a
    /// connection of the test's held across a kill would keep the WAL's index alive, so the restarted kiosk would
    /// never recover its WAL the way a door that lost power does (an encrypted WAL's recovery once dropped every
    /// commit since the last checkpoint, and this run could not see it).
    private var openStore: SQLiteDoorStore?
    private var enrolled = false

    /// Makes the folder and its database (the test roster, replaced by the server's when enrolled).
    init(
        name: String, server: ChaosServer, proxyURL: String, walkInKey: String,
        lan: (discoveryPort: Int, serverKeys: String)?
    ) throws {
        self.name = name
        self.lan = lan
        self.proxyURL = proxyURL
        self.walkInKey = walkInKey
        folder = LiveProcesses.temporaryFolder()
        try FileManager.default.copyItem(atPath: server.folder + "/ca.pem", toPath: folder + "/ca.pem")
        try FileManager.default.createDirectory(atPath: folder + "/frames", withIntermediateDirectories: true)
        try writeConfiguration()
        let imported = try kioskctl([
            "roster", "import", "--csv", LiveProcesses.packageRoot + "/test-images/roster.csv",
        ])
        guard imported.status == 0 else { throw ChaosFailure("\(name): kioskctl roster import: \(imported.err)") }
    }

    private func writeConfiguration() throws {
        try TestDatabaseKey.write(to: folder + "/" + TestDatabaseKey.relativePath)
        let conf = """
            door = \(name)
            tenant = 1
            event = 1
            trusted_key = 1 \(LiveProcesses.packageRoot)/test-images/keys/issuer-1.pub.pem
            trusted_key = 2 \(walkInKey)
            database = kiosk.db
            \(TestDatabaseKey.configurationLine)
            server = \(proxyURL)
            server_ca = ca.pem
            sync_interval = 1s
            \(lan.map { "lan_sync = on\nlan_port = 0\nlan_interface = 127.0.0.1\nlan_discovery_port = \($0.discoveryPort)\n\($0.serverKeys)" } ?? "lan_sync = off")
            source = replay:\(frames)
            display = text

            """
        try conf.write(toFile: folder + "/kiosk.conf", atomically: true, encoding: .utf8)
    }

    func kioskctl(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try ChildProcess.runBlocking("kioskctl", arguments + ["--config", "kiosk.conf"], in: folder)
    }

    /// Redeems a one-time code through the proxy (while it is healthy); the device id.
    func enroll(code: String) throws -> String {
        let r = try kioskctl(["enroll", "--server", proxyURL, "--code", code, "--ca-file", "ca.pem"])
        guard r.status == 0 else { throw ChaosFailure("\(name): kioskctl enroll exited \(r.status): \(r.err)") }
        enrolled = true
        return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The test's connection (see `openStore`), opened if closed; nil before the enrolment.
    private func store() throws -> SQLiteDoorStore? {
        if let openStore { return openStore }
        guard enrolled else { return nil }
        openStore = try SQLiteDoorStore(
            path: folder + "/kiosk.db", mode: .openExisting,
            key: try DatabaseKey.load(
                file: folder + "/" + TestDatabaseKey.relativePath, databasePath: folder + "/kiosk.db"))
        return openStore
    }

    var isRunning: Bool { process != nil }
    /// A kiosk that ended without being killed by the test: its exit status.
    var exitedByItself: Int32? {
        guard let process, !process.isRunning else { return nil }
        return process.terminationStatus
    }

    var logPath: String { folder + "/kiosk-\(starts).log" }

    /// The LAN links this door made in all its lives (its logs' "LAN link up" lines).
    var lanLinks: Int {
        (1...max(1, starts)).reduce(0) { count, start in
            let log = (try? String(contentsOfFile: folder + "/kiosk-\(start).log", encoding: .utf8)) ?? ""
            return count + log.components(separatedBy: "LAN link up with").count - 1
        }
    }

    func start() throws {
        starts += 1
        try writeConfiguration()
        let pipe = Pipe()
        process = try chaosSpawn("kiosk", ["--config", "kiosk.conf"], in: folder, log: logPath, keyboard: pipe)
        try? pipe.fileHandleForReading.close()
        keyboard = pipe.fileHandleForWriting
    }

    /// SIGKILL, at whatever the kiosk was doing.
    func kill() {
        guard let process else { return }
        // The test's connection goes first: the kiosk is then the last one with the WAL open, as at a door.
        openStore = nil
        chaosKill(process)
        try? keyboard?.close()
        keyboard = nil
        self.process = nil
    }

    /// Types at the door's keyboard; false if the kiosk is gone.
    @discardableResult
    func type(_ text: String) -> Bool {
        guard let keyboard else { return false }
        do {
            try keyboard.write(contentsOf: Data(text.utf8))
            return true
        } catch {
            return false
        }
    }

    /// The door's verdicts for `guest` from `since` on (its audit log), oldest first.
    func verdicts(for guest: String, since: Date, within rows: Int = 300) throws -> [ScanAttempt] {
        guard let store = try store() else { return [] }
        return try store.auditLog(limit: rows).filter { $0.guest?.text == guest && $0.at >= since }
    }

    func pending() throws -> Int { try store()?.pendingCount() ?? 0 }

    /// The items this door holds (its own and, over the LAN, other doors'), by key: device, epoch, sequence.
    func heldItems() throws -> Set<String> {
        guard let store = try store() else { return [] }
        return Set(
            try store.peerItems(event: EventID(1), notCoveredBy: PeerVector(), limit: .max)
                .map { "\($0.device) \($0.epoch) \($0.sequence)" })
    }

    /// The other doors' items this door holds (they came over the LAN: nothing else puts them there).
    func itemsFromPeers() throws -> Int {
        guard let store = try store(), let own = try store.ownPeerStream() else { return 0 }
        return try heldItems().filter { !$0.hasPrefix(own.device + " ") }.count
    }

    /// `kioskctl status`: pending, sync failures and superseded scans.
    func status() throws -> ChaosObservation.Door {
        let r = try kioskctl(["status", "--last", "0"])
        guard r.status == 0 else { throw ChaosFailure("\(name): kioskctl status exited \(r.status): \(r.err)") }
        var door = ChaosObservation.Door(pending: -1, failures: [], superseded: [])
        for line in r.out.split(separator: "\n").map(String.init) {
            if line.hasPrefix("door "), let range = line.range(of: " pending sync") {
                door.pending = Int(line[..<range.lowerBound].split(separator: " ").last ?? "") ?? -1
            } else if line.hasPrefix("  failed  ") {
                let rest = line.dropFirst("  failed  ".count)
                door.failures.append((String(rest.prefix { $0 != " " }), String(rest)))
            } else if line.hasPrefix("  superseded  ") {
                let guest = line.dropFirst("  superseded  ".count).prefix { $0 != ":" }
                door.superseded.append(String(guest))
            }
        }
        return door
    }

    deinit { kill() }
}
