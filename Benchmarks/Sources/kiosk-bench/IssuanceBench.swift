import ArgumentParser
import CheckinAdmin
import CheckinCore
import CheckinSQLite
import CheckinServer
import CheckinWebhooks
import Cryptography
import Foundation
import KioskCore
import PassFormat
import WireAPI

/// Pass issuance: passes per second through the workflow's sign, render and store steps (each committed to
/// SQLite before the next, as the server runs them; the email step is measured by the SMTP tests), each step
/// alone, and the cost of verifying a guest webhook, against a SHA-256 of the same body in the same run.
struct IssuanceBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "issuance", abstract: "Passes issued per second, and the cost of a webhook verification.")

    @Option(help: "Guests whose passes are issued.") var passes = 500
    @Option(help: "Webhook verifications timed.") var verifications = 20_000

    func run() async throws {
        let folder = NSTemporaryDirectory() + "kiosk-bench-issuance-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let repository = try SQLiteCheckinRepository(path: folder + "/checkin.db", secrets: SecretsKey.random())
        let admin = CheckinAdmin(repository: repository)
        let tenant = try await admin.createTenant(name: "Bench")
        let event = try await admin.createEvent(
            EventInput(name: "Bench gala", startsAt: Date(), endsAt: Date().addingTimeInterval(3600)), tenant: tenant.id
        )
        let steps = PassIssuanceSteps(
            repository: repository, images: PassImageStore(directory: folder + "/passes"),
            publicURL: "https://checkin.example.org", mailer: nil)
        let worker = PassIssuanceWorker(repository: repository, steps: steps)

        // Each step alone, on one pass.
        let guest = GuestID.random()
        let key = try Ed25519PrivateKey.generate()
        let issuer = PassIssuer(keyID: 1000, tenant: tenant.id, event: event.id, privateKey: key)
        let pass = try issuer.issue(for: guest).text
        var signTimes: [Double] = []
        for _ in 0..<passes { signTimes.append(try Stopwatch.milliseconds { _ = try issuer.issue(for: guest) }) }
        let sample = PassIssuance(
            id: "bench", tenant: tenant.id, event: event.id, guest: guest, recipient: "a@example.org", step: .render,
            nextAttemptAt: Date(), pass: pass, createdAt: Date(), updatedAt: Date())
        var renderTimes: [Double] = []
        var png: [UInt8] = []
        for _ in 0..<passes {
            renderTimes.append(
                try Stopwatch.milliseconds {
                    if case .rendered(let bytes) = try steps.render(sample) { png = bytes }
                })
        }

        // The workflow: guests added (each starts an issuance), then every step run and committed.
        let guests = (0..<passes).map { NewGuest(name: "Guest \($0)", email: "guest\($0)@example.org") }
        _ = try await repository.addGuests(guests, event: event.id, at: Date())
        var ran = 0
        let workflow = try await Stopwatch.seconds {
            // Until every pass waits at the email step (no relay here): 3 steps each.
            while ran < passes * 3, try await worker.runOne() != nil { ran += 1 }
        }
        let perPass = workflow / Double(passes) * 1000

        // Webhook verification of a 1 KiB body, against a SHA-256 of it.
        let secretText = WebhookSecretKey.generate()
        let secret = try WebhookSecretKey(secretText)
        let body = [UInt8](repeating: UInt8(ascii: "x"), count: 1024)
        let now = Date()
        let timestamp = Int64(now.timeIntervalSince1970)
        let signature = StandardWebhook.sign(id: "msg_bench", timestamp: timestamp, body: body, secret: secret)
        var verifyTimes: [Double] = []
        var hashTimes: [Double] = []
        for _ in 0..<verifications {
            hashTimes.append(Stopwatch.milliseconds { _ = SHA256.hash(body) })
            verifyTimes.append(
                try Stopwatch.milliseconds {
                    _ = try StandardWebhook.verify(
                        id: "msg_bench", timestamp: String(timestamp), signature: signature, body: body,
                        secrets: [secret], now: now)
                })
        }

        print("## Pass issuance (SQLite file, \(passes) passes; QR \(png.count) bytes of PNG, level H)\n")
        print(
            table(
                ["measure", "p50 ms", "p95 ms", "per second"],
                [
                    ["sign (Ed25519)", f(signTimes.median), f(signTimes.percentile(0.95)), rate(signTimes.median)],
                    [
                        "render (QR level H + PNG)", f(renderTimes.median), f(renderTimes.percentile(0.95)),
                        rate(renderTimes.median),
                    ],
                    ["workflow: sign, render, store, 3 commits", f(perPass), "", rate(perPass)],
                ]))
        print("\n## Webhook verification (1 KiB body, one secret)\n")
        let base = hashTimes.median
        print(
            table(
                ["measure", "p50 µs", "p95 µs", "p50 / SHA-256"],
                [
                    ["SHA-256 of the body (baseline)", f(base * 1000), f(hashTimes.percentile(0.95) * 1000), "1.0"],
                    [
                        "Standard Webhooks verify", f(verifyTimes.median * 1000),
                        f(verifyTimes.percentile(0.95) * 1000), String(format: "%.1f", verifyTimes.median / base),
                    ],
                ]))
    }

    func f(_ value: Double) -> String { String(format: "%.3f", value) }
    func rate(_ milliseconds: Double) -> String { String(format: "%.0f", 1000 / milliseconds) }
}
