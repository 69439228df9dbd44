import DedicatedThreads
import Foundation
import KioskStore
import NIOCore
import NIOEmbedded
import NIOPosix
import NIOTLS
import TestSupport
import Testing

@testable import KioskPeers

/// A device on the LAN with no credentials, jamming the doors' links (issue 49, findings 4 and 5): before, it
/// replayed a door's announcement from its own address, and the other door dialled it there (the source address
/// was not signed) and held the dial silent, so no link was made; and 1,500 connections that never finished their
/// TLS handshake took the kiosk's descriptors.
@Suite("Doors' links on the LAN: jamming by a device without credentials")
struct PeerJammingTests {
    /// South's announcement, signed by South, naming `addresses`.
    static func announcement(of node: PeerNode, addresses: [String]?) throws -> [UInt8] {
        let identity = try #require(node.network.holder.current).identity
        return try PeerAnnouncement(
            credential: identity.credential, port: node.port, sentAt: Int64(Date().timeIntervalSince1970 * 1000),
            addresses: addresses
        ).datagram(signedWith: identity.signingKey)
    }

    /// Hears `datagram` at `node` from `source`, as its discovery does; returns the task that runs any dial.
    static func hear(_ datagram: [UInt8], at node: PeerNode, from source: String) -> Task<Void, any Error> {
        let discovery = PeerDiscovery(network: node.network)
        return Task(executorPreference: ThreadExecutor.testServers) {
            try await withThrowingDiscardingTaskGroup { tasks in
                discovery.heard(datagram, from: try SocketAddress(ipAddress: source, port: 7448), tasks: &tasks)
            }
        }
    }

    @Test("an announcement replayed from an address its door did not sign is neither noted nor dialled")
    func aReplayFromAnotherAddressIsDropped() async throws {
        try await PeerNode.withDoors([("dev-a", "North"), ("dev-b", "South")]) {
            (issuer: Issuer, doors: [PeerNode]) async throws in
            let (north, south) = (doors[0], doors[1])
            let signed = try Self.announcement(of: south, addresses: ["127.0.0.1"])
            // The replay (127.0.0.2 is this box too, so a dial there would be answered: it must not be made).
            try await Self.hear(signed, at: north, from: "127.0.0.2").value
            #expect(try north.openStore().peerSightings().isEmpty, "a replayed announcement was noted")
            #expect(await north.exchange.linkedDevices.isEmpty)
            // The same announcement from South's own address: noted and dialled.
            let dial = Self.hear(signed, at: north, from: "127.0.0.1")
            defer { dial.cancel() }
            #expect(try await eventually { await north.exchange.linkedDevices == ["dev-b"] })
            #expect(try north.openStore().peerSightings().map(\.address) == ["127.0.0.1:\(south.port)"])
        }
    }

    @Test("each (door, address) is dialled on its own: a dial under way at one address holds up none at another")
    func dialsAtTwoAddressesOfOneDoorGoTogether() async throws {
        let issuer = try Issuer()
        let north = try await PeerNode(device: "dev-a", door: "North", issuer: issuer)
        let south = try await PeerNode(device: "dev-b", door: "South", issuer: issuer)
        defer {
            Task {
                await north.stop()
                await south.stop()
            }
        }
        let credential = try #require(south.network.holder.current).identity.credential
        #expect(await north.exchange.announced(credential, address: "192.0.2.9:7447"))
        // Before, the door was "being dialled" until that dial ended, whatever the address.
        #expect(await north.exchange.announced(credential, address: "127.0.0.1:\(south.port)"))
        #expect(!(await north.exchange.announced(credential, address: "127.0.0.1:\(south.port)")))
        await north.exchange.dialEnded("dev-b", address: "127.0.0.1:\(south.port)")
        #expect(await north.exchange.announced(credential, address: "127.0.0.1:\(south.port)"))
    }

    @Test("a flood of connections that never finish their handshake holds 4 from its address, and doors still link")
    func aHandshakeFloodIsCapped() async throws {
        try await withTaskExecutorPreference(ThreadExecutor.testServers) {
            let issuer = try Issuer()
            // Handshakes may take 10 minutes here: only the cap can close the flood within the test.
            let north = try await PeerNode(
                device: "dev-a", door: "North", issuer: issuer, handshakeLimit: .seconds(600))
            let south = try await PeerNode(device: "dev-b", door: "South", issuer: issuer)
            defer {
                Task {
                    await north.stop()
                    await south.stop()
                }
            }
            // 300 TCP connections from 127.0.0.2 that send nothing.
            var flood: [any Channel] = []
            for _ in 0..<300 {
                flood.append(
                    try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                        .bind(to: try SocketAddress(ipAddress: "127.0.0.2", port: 0))
                        .connect(host: "127.0.0.1", port: north.port).get())
            }
            defer { for channel in flood { channel.close(promise: nil) } }
            // All but 4 are closed by North at once; it holds at most 4 of that address's handshakes.
            #expect(
                try await eventually { flood.filter(\.isActive).count == 4 }, "\(flood.filter(\.isActive).count) open")
            #expect(north.network.handshakes.count(of: "127.0.0.2").address <= 4)
            // A door with a credential links meanwhile (from another address).
            south.dial(north)
            #expect(try await eventually { await north.exchange.linkedDevices == ["dev-b"] })
            // Its handshake done, its slot is free again.
            #expect(try await eventually { north.network.handshakes.count(of: "127.0.0.1").address == 0 })
        }
    }

    @Test func handshakeSlotsAreTakenPerAddressAndInAllAndFreedByAFinishedHandshake() throws {
        let slots = HandshakeSlots(total: 5, perAddress: 2)
        func connection(from address: String) throws -> EmbeddedChannel {
            let channel = EmbeddedChannel()
            try channel.pipeline.syncOperations.addHandler(slots.handler())
            try channel.connect(to: SocketAddress(ipAddress: address, port: 40_000)).wait()
            return channel
        }
        let a = try (0..<3).map { _ in try connection(from: "192.0.2.1") }
        #expect(a.map(\.isActive) == [true, true, false])
        // Its handshake done, a connection gives its slot back and stays.
        a[0].pipeline.fireUserInboundEventTriggered(TLSUserEvent.handshakeCompleted(negotiatedProtocol: nil))
        #expect(a[0].isActive)
        #expect(try connection(from: "192.0.2.1").isActive)
        // Five in all, whatever the addresses.
        let others = try (2...5).map { try connection(from: "192.0.2.\($0)") }
        #expect(others.map(\.isActive) == [true, true, true, false])
        #expect(slots.count(of: "192.0.2.1") == (total: 5, address: 2))
    }
}
