import ArgumentParser
import Foundation
import KioskCore
import KioskRuntime
import KioskStore

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the roster size, pending check-ins and the latest audit log entries.")

    @Option(help: "The kiosk's configuration file.")
    var config = "kiosk.conf"

    @Option(help: "How many audit log entries to show (0-10000).")
    var last = 20

    @Flag(help: "Print the figures as one JSON object, for a machine (monitoring, scripts).")
    var json = false

    func validate() throws {
        guard (0...10_000).contains(last) else {
            throw ValidationError("--last must be from 0 to 10000 entries, found \(last)")
        }
    }

    func run() throws {
        let settings = try ConfigurationFile.load(config)
        let store = try SQLiteDoorStore(configuration: settings, mode: .openExisting)
        if json {
            print(try StatusReport(settings: settings, store: store, last: last, now: Date()).json())
            return
        }
        print(
            "door \(settings.door), event \(settings.event): \(try store.guestCount(event: settings.event)) guests, "
                + "\(try store.checkIns(event: settings.event).count) checked in, \(try store.pendingCount()) pending sync"
        )
        print(DatabaseKey.protection(for: settings).statusLine)
        let f = ISO8601DateFormatter()
        if let enrolment = try store.enrolment() {
            let contact = try store.lastContact()
            let online = StatusReport.isOnline(lastContact: contact?.at, settings: settings, now: Date())
            print(
                "sync: \(online ? "online" : "offline") to \(enrolment.serverURL) as \(enrolment.deviceID), last contact "
                    + (contact.map { "\(f.string(from: $0.at)), clock offset \($0.clockOffsetMilliseconds) ms" }
                        ?? "never"))
            if let offset = contact?.clockOffsetMilliseconds, abs(offset) > 120_000 {
                print(
                    "clock: this kiosk's clock is \(abs(offset) / 1000) s \(offset > 0 ? "behind" : "ahead of") the server's; "
                        + "recorded times are corrected, but set the clock (timedatectl, NTP)")
            }
            if let roster = try store.rosterSyncState(event: settings.event) {
                if roster.complete {
                    let at = roster.fetchedAt.map { f.string(from: $0) } ?? "?"
                    print("roster: complete, up to date as of \(at) (\(roster.freshness.label(now: Date()) ?? ""))")
                } else {
                    print(
                        "roster: INCOMPLETE, \(roster.fetched) of \(roster.total.map(String.init) ?? "?") downloaded; scans say roster_incomplete until the download finishes (kioskctl roster refresh)"
                    )
                }
            }
            if let retention = try store.personalDataRetention(event: settings.event) {
                print(
                    retention.purgedAt.map {
                        "personal data: guests' names, e-mail addresses and notes deleted \(f.string(from: $0))"
                    }
                        ?? "personal data: guests' names, e-mail addresses and notes are deleted \(f.string(from: retention.purgeAt)) (the server's retention)"
                )
            }
            if !settings.lanSync {
                print("LAN between doors: off (lan_sync = off in \(config))")
            } else {
                let peers = try store.peerSightings()
                let linked = peers.filter(\.linked).count
                print("LAN between doors: \(peers.count) doors seen, \(linked) linked")
                for peer in peers {
                    let heard = f.string(from: Date(timeIntervalSince1970: Double(peer.lastHeard) / 1000))
                    print(
                        "  \(peer.linked ? "linked" : "seen  ")  \(peer.door)  \(peer.address)  last heard \(heard)  (\(peer.device))"
                            + (peer.clockWarning.map { "  \($0.uppercased()): check both clocks" } ?? "")
                    )
                }
            }
            let failures = try store.syncFailures()
            let superseded = try store.supersededScans()
            print("sync failures: \(failures.count), superseded scans: \(superseded.count)")
            for failure in failures {
                print(
                    "  failed  \(failure.checkIn.guest.text)  \(f.string(from: failure.checkIn.at))  \(failure.reason)")
            }
            for scan in superseded {
                let at = scan.winningAt.map { f.string(from: $0) } ?? "?"
                print("  superseded  \(scan.checkIn.guest.text): checked in at \(scan.winningDoor ?? "?") at \(at)")
            }
        } else if settings.server != nil {
            print("sync: not enrolled (kioskctl enroll --config \(config) --server URL --code CODE)")
        } else {
            print("sync: standalone (no server in \(config))")
        }
        for a in try store.auditLog(limit: last) {
            print("\(f.string(from: a.at))  \(a.source.rawValue)  \(a.verdict)  \(a.guest?.text ?? "-")  \(a.reason)")
        }
    }
}
