import Hummingbird
import NIOCore

/// Who a request comes from, for the sign-in throttle and the audit: the socket's peer, or, when the peer is a
/// configured trusted proxy (`--trusted-proxy`), the nearest address in `X-Forwarded-For` that is not one of
/// those proxies. A client that is not such a proxy cannot choose its key by sending the header.
enum ClientAddress {
    static let forwardedFor = HTTPFields.Element.Name("X-Forwarded-For")!

    static func of(_ request: Request, peer: String?, trustedProxies: Set<String>) -> String {
        guard let peer else { return "unknown" }
        guard trustedProxies.contains(peer) else { return peer }
        let hops = request.headers[values: forwardedFor]
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        // The proxy appends the address it saw: read from the right, past every trusted proxy.
        for hop in hops.reversed() where !trustedProxies.contains(hop) {
            guard let address = try? SocketAddress(ipAddress: hop, port: 0), let text = address.ipAddress else {
                return peer
            }
            return text
        }
        return peer
    }
}
