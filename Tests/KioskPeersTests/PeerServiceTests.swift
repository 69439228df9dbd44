import Foundation
import KioskCore
import KioskStore
import Logging
import PassFormat
import ServiceLifecycle
import Testing

@testable import KioskPeers

/// The LAN service inside the kiosk's service group: whatever keeps it from starting, a graceful shutdown ends it
/// cleanly, so `systemctl stop` sees the kiosk exit 0.
@Suite struct PeerServiceTests {
    struct StoreGone: Error {}

    // The first try is awaited, not polled against a deadline: in a whole-suite run on 2 cores the service's first
    // step can wait for the cooperative pool for half a minute (docs/benchmarks/2026-11-build-tests-and-ci.md, "Waiting for the cooperative
    // pool"), and a 30 s deadline failed there once (CI of 3a86dd4, with benchmarks beside it).
    @Test(.timeLimit(.minutes(3))) func aShutdownWhileWaitingToRetryEndsTheServiceWithoutAnError() async throws {
        let issuer = try Issuer()
        let (links, said) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "peer-service-test")
        logger.logLevel = .critical
        let service = PeerService(
            event: EventID(Issuer.event), settings: PeerSettings(port: 0, interface: "127.0.0.1"),
            verifier: issuer.trusted, logger: logger,
            openStore: { throw StoreGone() },
            linksChanged: { said.yield($0) })
        let group = ServiceGroup(services: [service], logger: logger)
        let running = Task { try await group.run() }
        // The first try fails (it says so with no links), and the service waits 10 s to try again.
        var told = links.makeAsyncIterator()
        #expect(await told.next() == 0)
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
