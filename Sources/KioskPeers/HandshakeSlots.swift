import NIOConcurrencyHelpers
import NIOCore
import NIOTLS

/// The LAN connections that have not finished their TLS handshake, in all and per address: a connection beyond
/// either cap is closed at once, so unauthenticated connections cannot take the door's descriptors (1,500 of them
/// reached the kiosk's limit, and once it died). A handshake that does not finish is closed after
/// `PeerSettings.handshakeLimit`, which frees its slot; a finished one frees it at once.
final class HandshakeSlots: Sendable {
    let total: Int
    let perAddress: Int
    private let open = NIOLockedValueBox((total: 0, byAddress: [String: Int]()))

    /// 4 per address (a door dials another once at a time per address), 64 in all.
    init(total: Int = 64, perAddress: Int = 4) {
        self.total = total
        self.perAddress = perAddress
    }

    func take(_ address: String) -> Bool {
        open.withLockedValue { open in
            guard open.total < total, open.byAddress[address, default: 0] < perAddress else { return false }
            open.total += 1
            open.byAddress[address, default: 0] += 1
            return true
        }
    }

    func give(_ address: String) {
        open.withLockedValue { open in
            open.total -= 1
            let left = open.byAddress[address, default: 1] - 1
            open.byAddress[address] = left > 0 ? left : nil
        }
    }

    /// Handshakes under way now, in all and from `address`.
    func count(of address: String) -> (total: Int, address: Int) {
        open.withLockedValue { ($0.total, $0.byAddress[address] ?? 0) }
    }

    /// The handler of one accepted connection, after the TLS handler (whose handshake-completed event it waits for).
    func handler() -> Slot { Slot(slots: self) }

    final class Slot: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny

        let slots: HandshakeSlots
        private var held: String?
        private var decided = false

        init(slots: HandshakeSlots) { self.slots = slots }

        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { take(context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            take(context)
            context.fireChannelActive()
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case .handshakeCompleted = event as? TLSUserEvent { give() }
            context.fireUserInboundEventTriggered(event)
        }

        func channelInactive(context: ChannelHandlerContext) {
            give()
            context.fireChannelInactive()
        }

        func handlerRemoved(context: ChannelHandlerContext) { give() }

        private func take(_ context: ChannelHandlerContext) {
            guard !decided else { return }
            decided = true
            let address = context.channel.remoteAddress?.ipAddress ?? "?"
            if slots.take(address) {
                held = address
            } else {
                context.close(promise: nil)
            }
        }

        private func give() {
            if let address = held { slots.give(address) }
            held = nil
        }
    }
}
