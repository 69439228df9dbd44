import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The connections open from each client address, shared by every connection of a server: a connection beyond
/// `limit` from one address is closed as soon as it is active, so a few clients cannot take every connection the
/// server serves (`EdgeLimits.maximumConnections`). Addresses in `exempt` (trusted proxies, which carry many
/// clients) are not counted.
final class ConnectionsPerAddress: Sendable {
    let limit: Int
    let exempt: Set<String>
    let logger: Logger
    /// Connections open per address, and the addresses at the cap already logged (once until their count falls
    /// to zero: a flood of refused connections writes one line, not one each).
    private let open = NIOLockedValueBox((counts: [String: Int](), logged: Set<String>()))

    init(limit: Int, exempt: Set<String>, logger: Logger) {
        self.limit = limit
        self.exempt = exempt
        self.logger = logger
    }

    /// The handler of one connection.
    func handler() -> Handler { Handler(counts: self) }

    /// Counts a connection from `address`; false when that address already holds `limit` (then not counted).
    func opened(_ address: String) -> Bool {
        if exempt.contains(address) { return true }
        let (admitted, log) = open.withLockedValue { open -> (Bool, Bool) in
            guard open.counts[address, default: 0] < limit else {
                return (false, open.logged.insert(address).inserted)
            }
            open.counts[address, default: 0] += 1
            return (true, false)
        }
        if log {
            logger.notice(
                "closing connections from \(address) beyond the \(limit) it holds (--max-connections-per-address; a reverse proxy: --trusted-proxy)"
            )
        }
        return admitted
    }

    func closed(_ address: String) {
        if exempt.contains(address) { return }
        open.withLockedValue { open in
            let left = open.counts[address, default: 1] - 1
            open.counts[address] = left > 0 ? left : nil
            if left <= 0 { open.logged.remove(address) }
        }
    }

    /// How many connections `address` holds now.
    func count(of address: String) -> Int { open.withLockedValue { $0.counts[address] ?? 0 } }

    final class Handler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny

        let counts: ConnectionsPerAddress
        private var counted: String?

        init(counts: ConnectionsPerAddress) { self.counts = counts }

        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { admit(context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            admit(context)
            context.fireChannelActive()
        }

        func channelInactive(context: ChannelHandlerContext) {
            release()
            context.fireChannelInactive()
        }

        func handlerRemoved(context: ChannelHandlerContext) { release() }

        private func admit(_ context: ChannelHandlerContext) {
            guard counted == nil, let address = context.channel.remoteAddress?.ipAddress else { return }
            if counts.opened(address) {
                counted = address
            } else {
                context.close(promise: nil)
            }
        }

        private func release() {
            if let address = counted { counts.closed(address) }
            counted = nil
        }
    }
}
