import Foundation
import KioskCore
import Logging
import NIOCore
import NIOExtras
import NIOPosix
import NIOSSL
import PassFormat

/// The sockets of the LAN between doors: the TLS listener for links, the dialer, and the multicast group.
struct PeerNetwork: Sendable {
    let exchange: PeerExchange
    let holder: PeerIdentityHolder
    let context: PeerExchange.Context
    let settings: PeerSettings
    let verifier: any PassSignatureVerifier
    let logger: Logger
    let group: any EventLoopGroup
    /// The listener's connections still in their TLS handshake, capped.
    let handshakes = HandshakeSlots()

    typealias Accepted = (channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>, peer: VerifiedPeer)

    /// The TLS checks of a presented certificate (both directions): the credential inside it.
    func verify(_ certificates: [NIOSSLCertificate], into peer: VerifiedPeer) -> NIOSSLVerificationResult {
        guard let leaf = certificates.first else { return .failed }
        do {
            let credential = try PeerIdentity.verifiedCredential(
                of: leaf, tenant: context.tenant, event: context.event, now: Date(), verifier: verifier)
            guard credential.deviceId != context.device else {
                throw PeerError(operation: "checking a door's LAN certificate", detail: "it is this door's own")
            }
            guard !exchange.revocations.revokes(credential) else {
                throw PeerError(
                    operation: "checking a door's LAN certificate",
                    detail: "the server revoked \(credential.door) (\(credential.deviceId))")
            }
            peer.set(credential)
            return .certificateVerified
        } catch {
            logger.warning("refused a LAN link: \(error)")
            return .failed
        }
    }

    /// The pipeline of a link, after TLS: 4-byte length-prefixed frames of at most `PeerMessage.maximumFrame`.
    func addFraming(_ channel: any Channel, peer: VerifiedPeer) throws -> Accepted {
        let sync = channel.pipeline.syncOperations
        try sync.addHandler(
            ByteToMessageHandler(
                LengthFieldBasedFrameDecoder(lengthFieldBitLength: .fourBytes),
                maximumBufferSize: PeerMessage.maximumFrame + 4))
        try sync.addHandler(LengthFieldPrepender(lengthFieldBitLength: .fourBytes))
        // A peer says something at least every `PeerExchange.keepAliveEvery`; a link silent for three times that
        // (`PeerSettings.silentLinkLimit`: a door unplugged, a cable cut) is closed, so the door stops counting it
        // and dials again when it is back.
        try sync.addHandler(
            IdleStateHandler(readTimeout: .nanoseconds(Int64(settings.silentLinkLimit / .nanoseconds(1)))))
        try sync.addHandler(CloseWhenSilent())
        channel.eventLoop.scheduleTask(in: .nanoseconds(Int64(settings.handshakeLimit / .nanoseconds(1)))) {
            if peer.credential == nil { channel.close(promise: nil) }
        }
        return (try NIOAsyncChannel(wrappingChannelSynchronously: channel), peer)
    }

    /// Binds the listener; returns it with the port it got.
    func listen() async throws -> (NIOAsyncChannel<Accepted, Never>, Int) {
        let holder = self.holder
        let network = self
        let server = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .bind(host: settings.interface ?? "0.0.0.0", port: settings.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    guard let current = holder.current else {
                        throw PeerError(operation: "accepting a LAN link", detail: "this door has no credential yet")
                    }
                    let peer = VerifiedPeer()
                    try channel.pipeline.syncOperations.addHandler(
                        NIOSSLServerHandler(context: current.server) { certificates, promise in
                            promise.succeed(network.verify(certificates, into: peer))
                        })
                    // At most so many handshakes at once, in all and per address (HandshakeSlots).
                    try channel.pipeline.syncOperations.addHandler(network.handshakes.handler())
                    return try network.addFraming(channel, peer: peer)
                }
            }
        return (server, server.channel.localAddress?.port ?? settings.port)
    }

    /// Accepts links until the listener closes.
    func accept(_ server: NIOAsyncChannel<Accepted, Never>) async throws {
        try await server.executeThenClose { inbound in
            try await withThrowingDiscardingTaskGroup { tasks in
                for try await accepted in inbound {
                    tasks.addTask {
                        await exchange.run(accepted.channel, credential: { accepted.peer.credential })
                    }
                }
            }
        }
    }

    /// Dials a door that announced itself, and runs the link until it closes.
    func dial(host: String, port: Int, device: String) async {
        defer {
            Task(executorPreference: exchange.executor) { await exchange.dialEnded(device, address: "\(host):\(port)") }
        }
        let network = self
        guard let current = holder.current else { return }
        do {
            let link = try await ClientBootstrap(group: group)
                .connectTimeout(.seconds(3))
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let peer = VerifiedPeer()
                        try channel.pipeline.syncOperations.addHandler(
                            try NIOSSLClientHandler(context: current.client, serverHostname: nil) {
                                certificates, promise in
                                promise.succeed(network.verify(certificates, into: peer))
                            })
                        return try network.addFraming(channel, peer: peer)
                    }
                }
            await exchange.run(link.channel, credential: { link.peer.credential })
        } catch {
            logger.info("could not link to the door at \(host):\(port): \(error)")
        }
    }
}

/// Closes a link whose peer has said nothing for `PeerSettings.silentLinkLimit`.
final class CloseWhenSilent: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}
