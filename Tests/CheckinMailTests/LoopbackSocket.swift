import Glibc

/// A TCP socket listening on 127.0.0.1 that never answers: a relay that accepts connections and then stays
/// silent (for timeouts and cancellation), or, once closed, a port where nothing listens.
final class LoopbackSocket: @unchecked Sendable {
    let port: Int
    private var descriptor: Int32

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && listen(descriptor, 4) == 0
                    && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard descriptor >= 0, bound else {
            let failure = errno
            if descriptor >= 0 { _ = Glibc.close(descriptor) }
            throw Failure(errno: failure)
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    struct Failure: Error { var errno: Int32 }

    /// Waits for one client and returns its socket (blocking; run it off the test's task).
    func acceptOne() -> Int32 { accept(descriptor, nil, nil) }

    /// Reads and drops what the client on `connection` sends until it closes the connection (or it breaks);
    /// false if it was still open after `limit` (blocking; run it off the test's task).
    static func waitForClose(of connection: Int32, within limit: Duration) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        var buffer = [UInt8](repeating: 0, count: 512)
        while clock.now < deadline {
            var request = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            let (seconds, attoseconds) = (deadline - clock.now).components
            let ready = poll(&request, 1, Int32(seconds * 1000 + attoseconds / 1_000_000_000_000_000) + 1)
            if ready < 0 && errno != EINTR { return false }
            guard ready > 0 else { continue }
            let count = recv(connection, &buffer, buffer.count, 0)
            if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { return true }
        }
        return false
    }

    func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }

    deinit { close() }
}
