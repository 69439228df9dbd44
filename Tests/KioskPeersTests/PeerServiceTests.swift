import Foundation
import KioskCore
import KioskStore
import Logging
import NIOConcurrencyHelpers
import PassFormat
import ServiceLifecycle
import Testing

@testable import KioskPeers

/// The LAN service inside the kiosk's service group: whatever keeps it from starting, a graceful shutdown ends it
/// cleanly, so `systemctl stop` sees the kiosk exit 0.
@Suite struct PeerServiceTests {
    struct StoreGone: Error {}

    @Test func aShutdownWhileWaitingToRetryEndsTheServiceWithoutAnError() async throws {
        let issuer = try Issuer()
        let failures = NIOLockedValueBox(0)
        var logger = Logger(label: "peer-service-test")
        logger.logLevel = .critical
        let service = PeerService(
            event: EventID(Issuer.event), settings: PeerSettings(port: 0, interface: "127.0.0.1"),
            verifier: issuer.trusted, logger: logger,
            openStore: { throw StoreGone() },
            linksChanged: { _ in failures.withLockedValue { $0 += 1 } })
        let group = ServiceGroup(services: [service], logger: logger)
        let running = Task { try await group.run() }
        // The first try has failed (it says so with no links) and the service waits 10 s to try again.
        let deadline = ContinuousClock.now + .seconds(30)
        while failures.withLockedValue({ $0 }) == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(failures.withLockedValue { $0 } == 1)
        await group.triggerGracefulShutdown()
        await #expect(throws: Never.self) { try await running.value }
    }
}
