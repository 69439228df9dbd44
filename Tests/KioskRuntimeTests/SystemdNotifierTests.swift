import Foundation
import KioskRuntime
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The sd_notify datagrams the kiosk sends systemd (READY=1 at start, WATCHDOG=1 from the capture loop).
@Suite struct SystemdNotifierTests {
    @Test func sendsTheStateToTheNotifySocket() throws {
        let path = NSTemporaryDirectory() + "notify-\(UUID().uuidString.prefix(8)).sock"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd); unlink(path) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path])
        #expect(notifier.notify("WATCHDOG=1"))
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        #expect(n > 0 && String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self) == "WATCHDOG=1")
    }

    @Test func withoutSystemdItDoesNothing() {
        #expect(!SystemdNotifier(environment: [:]).notify("READY=1"))
    }
}
