import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Tells systemd the service is ready and alive (`sd_notify` protocol: a datagram to `$NOTIFY_SOCKET`),
/// without linking libsystemd. Does nothing when not started by systemd.
public final class SystemdNotifier: Sendable {
    private let socketPath: String?
    /// systemd's WatchdogSec for this process (`WATCHDOG_USEC`, when `WATCHDOG_PID` is unset or ours), or nil.
    public let watchdogTimeout: Duration?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        let forUs = environment["WATCHDOG_PID"].map { $0 == String(getpid()) } ?? true
        if socketPath != nil, forUs, let usec = environment["WATCHDOG_USEC"].flatMap(Int64.init), usec > 0 {
            watchdogTimeout = .microseconds(usec)
        } else {
            watchdogTimeout = nil
        }
    }

    public var isActive: Bool { socketPath != nil }

    /// Sends `state` ("READY=1", "WATCHDOG=1", "STATUS=..."). The corresponding C calls are `socket` and `sendto`.
    @discardableResult
    public func notify(_ state: String) -> Bool {
        guard let socketPath else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketPath.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }  // abstract namespace
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.enumerated() { raw[i] = b }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count)
        let sent = state.withCString { text in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, text, strlen(text), Int32(MSG_NOSIGNAL), $0, length)
                }
            }
        }
        return sent >= 0
    }
}
