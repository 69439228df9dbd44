import Foundation
import KioskCore
import Logging
import NIOCore
import NIOPosix

/// Doors find each other on the venue LAN: each announces itself on a UDP multicast group (time to live 1: the
/// announcements stay on the venue's own network), and dials the doors it hears whose device id is greater than
/// its own.
struct PeerDiscovery: Sendable {
    let network: PeerNetwork

    typealias Datagrams = NIOAsyncChannel<AddressedEnvelope<ByteBuffer>, AddressedEnvelope<ByteBuffer>>

    /// Binds the group's port, joins the group on the configured interface (or the default one), and sends from it.
    func open() async throws -> Datagrams {
        let settings = network.settings
        let channel = try await DatagramBootstrap(group: network.group)
            .channelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "0.0.0.0", port: settings.discoveryPort) { channel in
                channel.eventLoop.makeCompletedFuture { try Datagrams(wrappingChannelSynchronously: channel) }
            }
        do {
            try await join(channel.channel)
        } catch {
            // The channel's writer must be finished before it goes.
            try? await channel.executeThenClose { _, _ in }
            if error is PeerError { throw error }
            // The kernel's own words ("No such device") do not say what to do: a door without a network, or an
            // address that is not this box's.
            let on = settings.interface.map { "on \($0) (lan_interface)" } ?? "on the interface of the default route"
            throw PeerError(
                operation: "joining the doors' multicast group \(settings.group) \(on)",
                detail: "\(error). Connect the door to the venue network, or set lan_interface in kiosk.conf to "
                    + "the IPv4 address of this box's network card; lan_sync = off turns the LAN off")
        }
        return channel
    }

    /// Joins the group on the configured interface (or the default one), and sends from that interface.
    private func join(_ channel: any Channel) async throws {
        let settings = network.settings
        let group = try SocketAddress(ipAddress: settings.group, port: settings.discoveryPort)
        guard let multicast = channel as? any MulticastChannel else {
            throw PeerError(operation: "joining the doors' multicast group", detail: "not a multicast channel")
        }
        if let interface = settings.interface {
            // Set on the socket, not through `joinGroup(device:)`, which refuses an interface without the multicast
            // flag (loopback), where the kernel serves the group all the same.
            guard let provider = channel as? any SocketOptionProvider else {
                throw PeerError(operation: "joining the doors' multicast group", detail: "no socket options")
            }
            var request = ip_mreq()
            guard inet_pton(AF_INET, settings.group, &request.imr_multiaddr) == 1,
                inet_pton(AF_INET, interface, &request.imr_interface) == 1
            else {
                throw PeerError(
                    operation: "joining the doors' multicast group",
                    detail: "'\(interface)' or '\(settings.group)' is not an IPv4 address")
            }
            try await provider.unsafeSetSocketOption(level: .ip, name: .ip_add_membership, value: request).get()
            try await provider.setIPMulticastIF(request.imr_interface).get()
        } else {
            try await multicast.joinGroup(group).get()
        }
    }

    /// Announces this door every `announceEvery` and reads the others' announcements, until cancelled.
    func run(_ channel: Datagrams, port: Int) async throws {
        let settings = network.settings
        let group = try SocketAddress(ipAddress: settings.group, port: settings.discoveryPort)
        try await channel.executeThenClose { inbound, outbound in
            try await withThrowingDiscardingTaskGroup { tasks in
                tasks.addTask {
                    while !Task.isCancelled {
                        if let current = network.holder.current {
                            let announcement = PeerAnnouncement(
                                credential: current.identity.credential, port: port,
                                sentAt: Int64(Date().timeIntervalSince1970 * 1000), addresses: ownAddresses())
                            let bytes = try announcement.datagram(signedWith: current.identity.signingKey)
                            try await outbound.write(
                                AddressedEnvelope(remoteAddress: group, data: ByteBuffer(bytes: bytes)))
                        }
                        try await Task.sleep(for: settings.announceEvery)
                    }
                }
                for try await envelope in inbound {
                    heard(Array(envelope.data.readableBytesView), from: envelope.remoteAddress, tasks: &tasks)
                }
            }
        }
    }

    func heard(_ bytes: [UInt8], from sender: SocketAddress, tasks: inout ThrowingDiscardingTaskGroup<any Error>) {
        let context = network.context
        let announcement: PeerAnnouncement
        do {
            announcement = try PeerAnnouncement(
                datagram: bytes, tenant: context.tenant, event: context.event, now: Date(),
                verifier: network.verifier)
        } catch {
            network.logger.debug("ignored an announcement from \(sender): \(error)")
            return
        }
        let peer = announcement.credential
        guard peer.deviceId != context.device, !network.exchange.revocations.revokes(peer),
            let host = sender.ipAddress
        else { return }
        // Sent from an address the door signed, or replayed from elsewhere (a device without credentials kept doors
        // from linking by replaying a door's announcement and holding the dial silent).
        if let addresses = announcement.addresses, !addresses.contains(host) {
            network.logger.debug(
                "ignored \(peer.door)'s announcement from \(host), not one of its addresses \(addresses)")
            return
        }
        let exchange = network.exchange
        let network = self.network
        let address = "\(host):\(announcement.port)"
        // Each (door, address) dialled on its own and beside the others: one silent dial holds up nothing else.
        tasks.addTask {
            guard await exchange.announced(peer, address: address) else { return }
            await network.dial(host: host, port: announcement.port, device: peer.deviceId)
        }
    }

    /// The IPv4 addresses this door sends its announcements from: the configured interface's, or every one of
    /// this box's (loopback too: doors on one box, as in the tests), at most `PeerAnnouncement.maximumAddresses`.
    func ownAddresses() -> [String] {
        if let interface = network.settings.interface { return [interface] }
        let devices = (try? System.enumerateDevices()) ?? []
        var addresses: [String] = []
        for device in devices {
            guard case .v4 = device.address, let text = device.address?.ipAddress, !addresses.contains(text) else {
                continue
            }
            addresses.append(text)
        }
        return Array(addresses.prefix(PeerAnnouncement.maximumAddresses))
    }
}
