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

/// What an operator reads when the door cannot join the doors' multicast group.
@Suite struct PeerDiscoveryErrorTests {
    @Test func anInterfaceThatIsNotThisBoxsIsNamedWithWhatToDo() async throws {
        let node = try await PeerNode(device: "dev_join", door: "Join", issuer: try Issuer())
        defer { Task { await node.stop() } }
        let network = node.network
        // 192.0.2.1 (TEST-NET-1) is no address of this machine: the kernel refuses the membership.
        let elsewhere = PeerNetwork(
            exchange: network.exchange, holder: network.holder, context: network.context,
            settings: PeerSettings(port: 0, discoveryPort: 0, interface: "192.0.2.1"), verifier: network.verifier,
            logger: network.logger, group: network.group)
        do {
            _ = try await PeerDiscovery(network: elsewhere).open()
            Issue.record("joined the group on an address this box does not have")
        } catch let error as PeerError {
            #expect(error.operation.contains("192.0.2.1 (lan_interface)"), "\(error)")
            #expect(error.detail.contains("set lan_interface in kiosk.conf"), "\(error)")
            #expect(error.detail.contains("lan_sync = off"), "\(error)")
        }
    }
}
