import ArgumentParser
import AsyncHTTPClient
import CheckinAdmin
import CheckinCore
import CheckinServer
import Foundation
import KioskCore
import WireAPI

/// The organizer's sync monitor with 200 devices: how long `checkin-server` takes to answer the page, against
/// its own stylesheet (the same HTTP path, no database, no template) measured in the same run.
struct WebBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web", abstract: "The sync monitor page for 200 devices (target: under 50 ms on the server).")

    @Option(help: "Devices enrolled for the event.") var devices = 200
    @Option(help: "Requests per row of the table.") var requests = 200

    func run() async throws {
        let folder = NSTemporaryDirectory() + "kiosk-bench-web-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try await BenchServer.sqlite(folder: folder)
        let repository = server.repository
        let tenant = try await server.admin.createTenant(name: "Bench")
        let now = Date()
        let event = try await server.admin.createEvent(
            EventInput(
                name: "Bench gala", venue: "Hall", opsContact: "+1 555 0100", startsAt: now.addingTimeInterval(-3600),
                endsAt: now.addingTimeInterval(3600)), tenant: tenant.id)
        for index in 0..<devices {
            let code = try await server.admin.createEnrolmentCode(event: event.id).code
            let device = try await repository.redeemEnrolment(
                Enrolling(
                    codeHash: Secrets.hash(enrolmentCode: code), newDeviceId: Secrets.newDeviceId(),
                    tokenHash: Secrets.hash(token: Secrets.newDeviceToken()), queueEpoch: Secrets.newQueueEpoch(),
                    door: "Door \(index)", kioskVersion: "1.0.0"), at: now)
            // A spread of last contacts: live, stale and offline rows.
            let seen = now.addingTimeInterval(-Double(index % 40) * 60)
            try await repository.recordHeartbeat(
                DeviceReport(
                    door: "Door \(index)", kioskVersion: "1.0.0", pending: index % 7, rosterCursor: "c1:\(index)",
                    rosterFetchedAt: seen, camera: "streaming", clockOffsetMs: 12, deviceTime: seen),
                device: device.id, at: seen)
        }
        let pages = try await SignedInPages(
            baseURL: server.urls[0], repository: repository, tenant: tenant.id, now: now)
        // The first ten requests of each page warm up.
        func timings(_ path: String) async throws -> (times: [Double], bytes: Int) {
            try await pages.timings(path, requests: requests, warmUp: 10)
        }
        let style = try await timings("/static/style.css")
        let monitor = try await timings("/events/\(event.id.rawValue)/monitor")
        let live = try await timings("/events/\(event.id.rawValue)/monitor/live")
        // The monitor's two queries alone, in the process: its devices, and how far behind each roster is.
        var queries: [Double] = []
        var behindQueries: [Double] = []
        let cursors = Set((0..<devices).map { "c1:\($0)" })
        for _ in 0..<requests {
            queries.append(try await Stopwatch.seconds { _ = try await repository.devices(event: event.id) } * 1000)
            behindQueries.append(
                try await Stopwatch.seconds {
                    _ = try await repository.rosterChangesBehind(event: event.id, cursors: cursors)
                } * 1000)
        }
        try await pages.shutdown()
        await server.stop()
        print("## Sync monitor, \(devices) devices (SQLite, loopback HTTP, \(requests) requests each)\n")
        let base = style.times.median
        print(
            table(
                ["request", "bytes", "p50 ms", "p95 ms", "p50 / stylesheet"],
                [
                    ("stylesheet (baseline)", style), ("monitor page", monitor), ("monitor live part", live),
                    ("its devices query alone", (queries, 0)), ("its roster-behind query alone", (behindQueries, 0)),
                ].map {
                    name, measured in
                    [
                        name, String(measured.bytes), String(format: "%.2f", measured.times.median),
                        String(format: "%.2f", measured.times.percentile(0.95)),
                        String(format: "%.1f", measured.times.median / base),
                    ]
                }))
    }
}
