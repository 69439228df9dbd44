import Foundation
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// Where an offline-alert webhook may go: checked when the organizer saves the URL and again before each
/// delivery, against the addresses DNS gives then; the delivery connects to the address checked (so a name
/// that answers a public address to the check and an internal one to the connection, DNS rebinding, gains
/// nothing). `localhost` names and internal addresses (`WebhookAddress`) are refused unless
/// `--allow-private-webhooks`.
public struct WebhookDestination: Sendable {
    /// The URL's host as written (a name or an address).
    public let host: String
    /// The address checked, to connect to.
    public let address: String

    /// A destination that is not allowed: said to the organizer as "refused" and why, never what the address
    /// answered.
    public enum Refusal: Error, CustomStringConvertible, Equatable {
        case noHost
        case localName(String)
        case internalAddress(host: String, kind: String)

        public var description: String {
            switch self {
            case .noHost: "refused: the webhook URL has no host"
            case .localName(let host):
                "refused: \(host) is this server itself; give the receiver's public name"
            case .internalAddress(let host, let kind):
                "refused: \(host) is a \(kind) address, inside a network; give a public receiver"
                    + " (or run the server with --allow-private-webhooks for one on the venue's network)"
            }
        }
    }

    /// Resolves the URL's host and checks every address it has; the first is the one to connect to. Nil when
    /// the name has no address now (saving such a URL is not refused: each delivery looks again).
    public static func check(url: String, allowPrivate: Bool) async throws(Refusal) -> WebhookDestination? {
        guard let components = URLComponents(string: url), var host = components.host, !host.isEmpty else {
            throw .noHost
        }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "."))
        if !allowPrivate && (name == "localhost" || name.hasSuffix(".localhost") || name == "localhost.localdomain") {
            throw .localName(host)
        }
        let addresses = await resolve(host)
        guard let first = addresses.first else { return nil }
        if !allowPrivate {
            for address in addresses {
                if let kind = address.1.internalKind { throw .internalAddress(host: host, kind: kind) }
            }
        }
        return WebhookDestination(host: host, address: first.0)
    }

    /// The host's addresses (text, bytes): an address literal is itself; a name goes to the system's resolver
    /// on threads of its own (not NIO's shared blocking pool, where password checks can fill every thread).
    static func resolve(_ host: String) async -> [(String, WebhookAddress)] {
        if let literal = literal(host) { return [literal] }
        return (try? await lookUpThreads.runIfActive { lookUp(host) }) ?? []
    }

    /// Two threads for the webhooks' look-ups, started once.
    static let lookUpThreads: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 2)
        pool.start()
        return pool
    }()

    /// A dotted-quad IPv4 or an IPv6 address, as written (other spellings, such as 2130706433, go to the
    /// resolver, which reads them as the C library does).
    static func literal(_ host: String) -> (String, WebhookAddress)? {
        var v4 = in_addr()
        if host.split(separator: ".").count == 4, inet_pton(AF_INET, host, &v4) == 1 {
            return (host, WebhookAddress(bytes: withUnsafeBytes(of: &v4) { Array($0) }))
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            return (host, WebhookAddress(bytes: withUnsafeBytes(of: &v6) { Array($0) }))
        }
        return nil
    }

    private static func lookUp(_ host: String) -> [(String, WebhookAddress)] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let list else { return [] }
        defer { freeaddrinfo(list) }
        var found: [(String, WebhookAddress)] = []
        var next: UnsafeMutablePointer<addrinfo>? = list
        while let entry = next {
            next = entry.pointee.ai_next
            guard let socketAddress = entry.pointee.ai_addr else { continue }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            switch entry.pointee.ai_family {
            case AF_INET:
                var v4 = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                let bytes = withUnsafeBytes(of: &v4) { Array($0) }
                inet_ntop(AF_INET, &v4, &text, socklen_t(text.count))
                found.append((String(cString: text), WebhookAddress(bytes: bytes)))
            case AF_INET6:
                var v6 = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                let bytes = withUnsafeBytes(of: &v6) { Array($0) }
                inet_ntop(AF_INET6, &v6, &text, socklen_t(text.count))
                found.append((String(cString: text), WebhookAddress(bytes: bytes)))
            default: continue
            }
        }
        return found
    }
}
