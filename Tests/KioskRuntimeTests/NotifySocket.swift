import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A datagram socket standing in for systemd's `$NOTIFY_SOCKET`: what the kiosk tells systemd arrives here.
final class NotifySocket {
    let path = NSTemporaryDirectory() + "notify-\(UUID().uuidString.prefix(8)).sock"
    private let fd: Int32

    init() throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// The next datagram, waiting at most `timeout` seconds; nil if none came.
    func receive(timeout: Double) -> String? {
        var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&waiting, 1, Int32(timeout * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = recv(fd, &buffer, buffer.count, 0)
        return n > 0 ? String(decoding: buffer.prefix(n), as: UTF8.self) : nil
    }

    /// Every datagram that arrives within `seconds`.
    func collect(for seconds: Double) -> [String] {
        let end = Date().addingTimeInterval(seconds)
        var got: [String] = []
        while case let left = end.timeIntervalSinceNow, left > 0 {
            if let message = receive(timeout: left) { got.append(message) }
        }
        return got
    }
}
