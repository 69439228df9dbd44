import ArgumentParser
import Cryptography
import Foundation
import KioskCore
import KioskPeers
import KioskStore
import Logging
import PassFormat
import SignedRecords
import Synchronization

/// The LAN between doors (docs/SYNC.md, "Between doors"): three doors in this process, each with its own encrypted
/// database, the real TLS links and multicast discovery on loopback. A check-in is committed at one door (the door
/// loop's own durable transaction, the baseline of the table) and timed until both other doors have applied it.
struct LANBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lan", abstract: "Time for a check-in to reach every other door on the LAN.")

    @Option(help: "Check-ins, made in turn at each door.") var checkIns = 300
    @Option(help: "Milliseconds between two check-ins.") var gap = 30

    static let event = EventID(42)
    static let tenant = TenantID(7)

    /// When each door applied each guest's check-in.
    final class Arrivals: Sendable {
        let seen = Mutex<[String: [String: ContinuousClock.Instant]]>([:])

        func note(_ items: [PeerItem], at door: String) {
            let now = ContinuousClock.now
            seen.withLock { seen in for item in items { seen[door, default: [:]][item.guest] = now } }
        }

        func arrival(of guest: String, at door: String) -> ContinuousClock.Instant? {
            seen.withLock { $0[door]?[guest] }
        }
    }

    struct Door {
        let name: String
        let path: String
        let key: DatabaseKey
        let task: Task<Void, any Error>

        func openStore() throws -> SQLiteDoorStore { try SQLiteDoorStore(path: path, mode: .openExisting, key: key) }
    }

    func run() async throws {
        let signer = try Ed25519PrivateKey.generate()
        var trusted = TrustedKeys()
        trusted.trust(try signer.publicKey, as: 1000)
        let verifier = trusted
        let guests = (0..<checkIns).map { n in
            RosterGuest(
                guest: GuestID(bytes: (0..<GuestID.byteCount).map { UInt8(truncatingIfNeeded: n >> ($0 * 8)) })!,
                tenant: Self.tenant, event: Self.event, name: "Guest \(n)", partySize: 1)
        }
        let arrivals = Arrivals()
        let linked = Mutex<[String: Int]>([:])
        let discoveryPort = Int.random(in: 20000...60000)
        var doors: [Door] = []
        for (n, name) in ["North", "South", "East"].enumerated() {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lan-bench-\(UUID())").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = folder + "/kiosk.db"
            let key = DatabaseKey.random()
            let store = try SQLiteDoorStore(path: path, mode: .createIfMissing, key: key)
            try store.upsertGuests(guests)
            try store.saveEnrolment(
                SyncEnrolment(
                    serverURL: "https://checkin.invalid", deviceID: "dev-\(n)", token: "t", tenant: Self.tenant,
                    queueEpoch: "e", caFile: nil, enrolledAt: Date()))
            let pair = PeerIdentity.newKeyPair()
            try store.savePeerIdentity(privateKey: pair.privateKey, publicKey: pair.publicKey, at: Date())
            let now = Int64(Date().timeIntervalSince1970)
            var credential = PeerCredential(
                keyID: 1000, tenant: Self.tenant.rawValue, event: Self.event.rawValue, deviceId: "dev-\(n)",
                door: name, peerKey: pair.publicKey, notBefore: now, notAfter: now + PeerCredential.validity)
            credential.signature = try signer.sign(credential.signedMessage)
            try store.savePeerCredentials([credential], at: Date())
            var logger = Logger(label: "lan-bench")
            logger.logLevel = .error
            let service = PeerService(
                event: Self.event,
                settings: PeerSettings(
                    port: 0, discoveryPort: discoveryPort, interface: "127.0.0.1", announceEvery: .milliseconds(300)),
                verifier: verifier, logger: logger,
                openStore: { try SQLiteDoorStore(path: path, mode: .openExisting, key: key) },
                linksChanged: { count in linked.withLock { $0[name] = count } },
                applied: { arrivals.note($0, at: name) })
            doors.append(Door(name: name, path: path, key: key, task: Task { try await service.run() }))
        }
        defer { for door in doors { door.task.cancel() } }
        let linkStart = ContinuousClock.now
        while linked.withLock({ $0.values.filter { $0 == 2 }.count }) < 3 {
            guard ContinuousClock.now - linkStart < .seconds(30) else {
                throw ValidationError("the three doors did not link within 30 s: \(linked.withLock { $0 })")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let linkedIn = Stopwatch.seconds(ContinuousClock.now - linkStart)
        let stores = try doors.map { try $0.openStore() }
        var commits: [Double] = []
        var reach: [Double] = []
        for (n, guest) in guests.enumerated() {
            let at = n % doors.count
            let door = doors[at]
            let time = Date()
            let committed = ContinuousClock.now
            _ = try stores[at].record(
                checkIn: CheckIn(
                    guest: guest.guest, event: Self.event, door: door.name, at: time, arrived: 1, source: .camera),
                attempt: ScanAttempt(
                    at: time, door: door.name, source: .camera, payload: guest.guest.text, guest: guest.guest,
                    verdict: "admitted", reason: "valid pass"))
            let done = ContinuousClock.now
            commits.append(Stopwatch.seconds(done - committed) * 1000)
            let others = doors.filter { $0.name != door.name }.map(\.name)
            while true {
                let times = others.map { arrivals.arrival(of: guest.guest.text, at: $0) }
                if times.allSatisfy({ $0 != nil }) {
                    reach.append(Stopwatch.seconds(times.compactMap { $0 }.max()! - done) * 1000)
                    break
                }
                guard ContinuousClock.now - done < .seconds(10) else {
                    throw ValidationError("check-in \(n) did not reach every door within 10 s")
                }
                try await Task.sleep(for: .milliseconds(1))
            }
            try await Task.sleep(for: .milliseconds(gap))
        }
        func row(_ name: String, _ values: [Double], baseline: Double) -> String {
            let median = values.percentile(0.5)
            return
                "| \(name) | \(String(format: "%.1f", median)) | \(String(format: "%.1f", values.percentile(0.99))) | "
                + "\(String(format: "%.1f", values.max() ?? .nan)) | \(String(format: "%.1f", median / baseline))× |"
        }
        let baseline = commits.percentile(0.5)
        print(
            "LAN between doors: 3 doors in one process, loopback, TLS 1.3; linked in \(String(format: "%.1f", linkedIn)) s"
        )
        print("| \(checkIns) check-ins, one every \(gap) ms | median ms | p99 ms | max ms | median / commit |")
        print("|---|---:|---:|---:|---:|")
        print(row("the door's own commit (baseline)", commits, baseline: baseline))
        print(row("commit to applied at both other doors", reach, baseline: baseline))
    }
}
