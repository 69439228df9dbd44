import ArgumentParser
import AsyncHTTPClient
import CheckinAdmin
import CheckinCore
import CheckinServer
import Foundation
import KioskCore
import PassFormat
import WireAPI

/// The organizer's guest pages for a large event: the guest list (first page, a later page, sorted by arrival, a
/// search), the no-shows, the guests' CSV export and the dashboard, against the server's own stylesheet measured
/// in the same run.
struct GuestListBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "guests",
        abstract: "The guest list, no-shows, export and dashboard of an event with many guests (SQLite).")

    @Option(help: "Guests of the event; 40% of them checked in.") var guests = 20_000
    @Option(help: "Requests per row of the table.") var requests = 30

    func run() async throws {
        let folder = NSTemporaryDirectory() + "kiosk-bench-guests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try await BenchServer.sqlite(folder: folder)
        let repository = server.repository
        let tenant = try await server.admin.createTenant(name: "Bench")
        let now = Date()
        let event = try await server.admin.createEvent(
            EventInput(
                name: "Bench gala", startsAt: now.addingTimeInterval(-3600), endsAt: now.addingTimeInterval(3600)),
            tenant: tenant.id)
        let first = ["Ada", "Grace", "Alan", "Hedy", "Katherine", "Émile", "Zoë", "Łukasz"]
        let last = ["Lovelace", "Hopper", "Turing", "Lamarr", "Johnson", "Zola", "Núñez", "Dvořák", "Smith"]
        var added: [Guest] = []
        for start in stride(from: 0, to: guests, by: 1000) {
            let chunk = (start..<min(guests, start + 1000)).map { index in
                NewGuest(
                    name: "\(first[index % first.count]) \(last[index / 7 % last.count]) \(index)",
                    email: "guest\(index)@example.org", partySize: 1 + index % 3)
            }
            added += try await repository.addGuests(chunk, event: event.id, at: now)
        }
        let code = try await server.admin.createEnrolmentCode(event: event.id).code
        let device = try await repository.redeemEnrolment(
            Enrolling(
                codeHash: Secrets.hash(enrolmentCode: code), newDeviceId: Secrets.newDeviceId(),
                tokenHash: Secrets.hash(token: Secrets.newDeviceToken()), queueEpoch: Secrets.newQueueEpoch(),
                door: "North", kioskVersion: "1.0.0"), at: now)
        let arriving = added.enumerated().filter { $0.offset % 5 < 2 }.map(\.element)
        for start in stride(from: 0, to: arriving.count, by: 500) {
            let scans = arriving[start..<min(arriving.count, start + 500)].enumerated().map { offset, guest in
                Scan(
                    key: ScanKey(deviceId: device.id, epoch: device.queueEpoch, sequence: Int64(start + offset + 1)),
                    guest: guest.id, kind: .checkIn,
                    deviceTime: now.addingTimeInterval(-Double(arriving.count - start - offset)), clockOffsetMs: 0,
                    arrived: guest.partySize, door: "North", source: "camera")
            }
            _ = try await repository.apply(scans, event: event.id, device: device) { now }
        }
        let pages = try await SignedInPages(
            baseURL: server.urls[0], repository: repository, tenant: tenant.id, now: now)
        // The first three requests of each page warm up.
        func timings(_ path: String) async throws -> (times: [Double], bytes: Int) {
            try await pages.timings(
                path, requests: requests, warmUp: 3, timeout: .seconds(60), maximumBytes: 256 * 1024 * 1024)
        }
        let e = "/events/\(event.id.rawValue)"
        let rows: [(String, String)] = [
            ("stylesheet (baseline)", "/static/style.css"), ("guest list, first page", "\(e)/guests"),
            ("guest list, page 100", "\(e)/guests?page=100"), ("guest list by arrival", "\(e)/guests?sort=arrival"),
            ("search 'nunez'", "\(e)/guests?q=nunez"), ("no-shows", "\(e)/no-shows"),
            ("guests CSV export", "\(e)/export/guests.csv"), ("dashboard", e),
        ]
        var measured: [(String, (times: [Double], bytes: Int))] = []
        for (name, path) in rows { measured.append((name, try await timings(path))) }
        try await pages.shutdown()
        await server.stop()
        print(
            "## Guest pages, \(guests) guests, \(arriving.count) checked in (SQLite, loopback HTTP, \(requests) requests each)\n"
        )
        let base = measured[0].1.times.median
        print(
            table(
                ["request", "bytes", "p50 ms", "p95 ms", "p50 / stylesheet"],
                measured.map { name, result in
                    [
                        name, String(result.bytes), String(format: "%.2f", result.times.median),
                        String(format: "%.2f", result.times.percentile(0.95)),
                        String(format: "%.1f", result.times.median / base),
                    ]
                }))
    }
}
