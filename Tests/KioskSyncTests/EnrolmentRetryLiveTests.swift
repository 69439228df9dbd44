import Foundation
import KioskCore
import KioskSync
import Testing

/// `kioskctl enroll` over an uplink that loses answers: the redeem is tried again by itself with the same code
/// and the nonce kept in the kiosk's database, and a later `kioskctl enroll` with the same code still gets this
/// kiosk its device: one code, one device. Another kiosk with that code gets "already used".
@Suite("Enrolment over a lossy uplink", .serialized)
struct EnrolmentRetryLiveTests {
    @Test(
        "every answer lost: enroll retries, and a rerun with the same code gets the same single device",
        .enabled(if: LiveProcesses.toolsPresent, "needs openssl and curl"))
    func lostAnswersSpendNoSecondCode() async throws {
        try await withTaskExecutorPreference(LiveProcesses.waiting) { try await lostAnswersSteps() }
    }

    func lostAnswersSteps() async throws {
        let server = try await EndToEndSyncTests.server()
        defer { server.stopWithoutWaiting() }
        let code = try await server.admin(["enrolment-code", "--event", "1"])
        let proxy = try FaultProxy(serverPort: server.port, plan: FaultPlan(seed: 1, dropResponse: 1.0))
        defer { proxy.stop() }
        let north = try await LiveKioskFolder(door: "North", server: server)
        let throughProxy = "https://localhost:\(proxy.port)"
        let lost = try await north.kioskctl([
            "enroll", "--server", throughProxy, "--code", code, "--ca-file", "ca.pem", "--retry-for", "4",
        ])
        #expect(lost.status != 0)
        #expect(lost.err.contains("trying again"), "\(lost.err)")
        // What to do when it gives up: the same command again, not a new code.
        #expect(lost.err.contains("run the same kioskctl enroll again"), "\(lost.err)")
        #expect(!lost.err.contains("the queue stays"), "\(lost.err)")
        #expect(proxy.counts.responsesDropped >= 2, "\(proxy.counts)")

        // The code is spent on the server; this kiosk's nonce still gets its device.
        let codeFile = north.folder + "/code.txt"
        try code.write(toFile: codeFile, atomically: true, encoding: .utf8)
        let again = try await north.kioskctl([
            "enroll", "--server", server.url, "--code-file", codeFile, "--ca-file", "ca.pem",
        ])
        #expect(again.status == 0, "\(again.err)")
        let devices = try await server.admin(["devices", "--tenant", "1"])
        #expect(devices.split(separator: "\n").count == 1, "one device: \(devices)")
        await #expect(try north.kioskctl(["sync"]).status == 0)

        // Another kiosk with the same code: already used.
        let south = try await LiveKioskFolder(door: "South", server: server)
        let other = try await south.kioskctl(["enroll", "--server", server.url, "--code", code, "--ca-file", "ca.pem"])
        #expect(other.status != 0)
        #expect(other.err.contains("already used"), "\(other.err)")
    }

    @Test("plain HTTP to another machine is refused; to loopback it is allowed")
    func plainHTTPOnlyOnLoopback() throws {
        let refused = #expect(throws: SyncError.self) { try ServerAddress.check("http://checkin.example:8080") }
        #expect(refused?.kind == .badAddress)
        #expect(refused?.description.contains("https://") == true, "says what to use instead")
        #expect(throws: SyncError.self) { try ServerAddress.check("http://10.0.0.5") }
        #expect(throws: SyncError.self) { try ServerAddress.check("ftp://127.0.0.1") }
        try ServerAddress.check("http://127.0.0.1:8080")
        try ServerAddress.check("http://localhost:8080")
        try ServerAddress.check("http://[::1]:8080")
        try ServerAddress.check("https://checkin.example:8443")
    }
}
