import CheckinCore
import CheckinServer
import Foundation
import KioskCore
import KioskSync
import WireAPI

/// One turn of the server benchmark against running server processes: devices enrolled over HTTP, then each
/// phase measured as the servers' CPU time (and PostgreSQL's backends').
struct ServerBenchRun {
    let setup: ServerBenchSetup
    let servers: ServerProcesses
    let database: BenchPostgres?
    let kiosks: Int
    let perKiosk: Int

    /// One uploading device: its client (on server `i % count`) and its key's parts.
    struct Device: Sendable {
        let client: CheckinClient
        let id: String
        let epoch: String
        let door: String
    }

    /// The CPU and wall time of one phase.
    struct Cost {
        var wall: Double
        var server: Double
        var backends: Double
    }

    func measured(_ body: () async throws -> Void) async throws -> Cost {
        let server = servers.cpuSeconds()
        let backends = await database?.backendCPUSeconds() ?? 0
        let wall = try await Stopwatch.seconds(body)
        return Cost(
            wall: wall, server: servers.cpuSeconds() - server,
            backends: (await database?.backendCPUSeconds() ?? 0) - backends)
    }

    func enrol() async throws -> [Device] {
        var devices: [Device] = []
        for i in 0..<kiosks {
            let url = servers.urls[i % servers.urls.count]
            let code = try await setup.admin.createEnrolmentCode(event: setup.event).code
            let door = "Door \(i)"
            let enrolment = try await CheckinClient.withClient(serverURL: url, token: nil, caFile: nil) { client in
                try await client.redeem(EnrolmentRequest(code: code, door: door, kioskVersion: KioskSoftware.version))
                    .answer
            }
            devices.append(
                Device(
                    client: try CheckinClient(serverURL: url, token: enrolment.token, caFile: nil),
                    id: enrolment.deviceId, epoch: enrolment.queueEpoch, door: door))
        }
        return devices
    }

    /// Batches of 50 check-ins of fresh guests for each device, sequences from `first`.
    func batches(_ devices: [Device], count: Int, first: Int64) throws -> [[CheckInBatch]] {
        try devices.map { device in
            let guests = Array(try setup.pool.take(count))
            let now = Date()
            let items = guests.enumerated().map { n, guest in
                CheckInItem(
                    key: ItemKey(deviceId: device.id, epoch: device.epoch, sequence: first + Int64(n)),
                    guestId: guest.text, kind: .checkIn, scannedAt: now.addingTimeInterval(Double(n) / 1000),
                    clockOffsetMs: 0, arrived: 1, door: device.door, source: "camera")
            }
            return stride(from: 0, to: items.count, by: CheckInBatch.maximumSize).map {
                CheckInBatch(items: Array(items[$0..<min($0 + CheckInBatch.maximumSize, items.count)]))
            }
        }
    }

    /// Every device uploads its batches in order, all devices at once; checks each answer.
    func upload(_ devices: [Device], _ batches: [[CheckInBatch]], expect: Set<CheckInOutcome.Kind>) async throws {
        let event = setup.event.rawValue
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (device, mine) in zip(devices, batches) {
                group.addTask {
                    for batch in mine {
                        let answer = try await device.client.upload(batch, event: event).answer
                        guard answer.outcomes.count == batch.items.count,
                            answer.outcomes.allSatisfy({ expect.contains($0.outcome) })
                        else { throw BenchFailure("unexpected answers: \(answer.outcomes.prefix(3))") }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    func ingest() async throws -> ServerBenchTable.Sample {
        let devices = try await enrol()
        defer { Task { for device in devices { await device.client.shutdown() } } }
        // Warm up: one batch each (connections, caches, statements), not measured.
        try await upload(devices, try batches(devices, count: 50, first: 1), expect: [.applied])
        let fresh = try batches(devices, count: perKiosk, first: 51)
        let ingest = try await measured { try await upload(devices, fresh, expect: [.applied]) }
        let repeats = try await measured { try await upload(devices, fresh, expect: [.applied]) }
        let heartbeats = try await measured {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for device in devices {
                    group.addTask {
                        for _ in 0..<(perKiosk / CheckInBatch.maximumSize) {
                            _ = try await device.client.heartbeat(
                                Heartbeat(
                                    door: device.door, kioskVersion: KioskSoftware.version, pending: 0,
                                    oldestPendingAt: nil, rosterCursor: nil, rosterFetchedAt: nil, camera: "bench",
                                    clockOffsetMs: 0, deviceTime: Date()))
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        return ServerBenchTable.Sample(
            checkIns: kiosks * perKiosk, requests: kiosks * (perKiosk / CheckInBatch.maximumSize), ingest: ingest,
            repeats: repeats, heartbeats: heartbeats)
    }

    /// A first download as a kiosk makes it: every page of 500 in turn, one client.
    func rosterDownload() async throws -> Cost {
        let code = try await setup.admin.createEnrolmentCode(event: setup.event).code
        let url = servers.urls[0]
        let enrolment = try await CheckinClient.withClient(serverURL: url, token: nil, caFile: nil) { client in
            try await client.redeem(EnrolmentRequest(code: code, door: "Roster", kioskVersion: KioskSoftware.version))
                .answer
        }
        return try await CheckinClient.withClient(serverURL: url, token: enrolment.token, caFile: nil) { client in
            // One page first, unmeasured (connection, statements).
            _ = try await client.rosterPage(event: setup.event.rawValue, page: nil, changesSince: nil)
            return try await measured {
                var page: String?
                repeat {
                    page = try await client.rosterPage(event: setup.event.rawValue, page: page, changesSince: nil)
                        .answer.nextPage
                } while page != nil
            }
        }
    }
}
