import Foundation
import KioskCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The door's keyboard: standard input, switched to raw mode when it is a terminal so single keys
/// (Enter, Esc, digits) arrive at once. Restores the terminal when finished.
public final class KeyboardInput: Sendable {
    private let saved: termios?
    private let stopped = Atomic(false)

    public init() {
        guard isatty(STDIN_FILENO) == 1 else {
            saved = nil
            return
        }
        var t = termios()
        tcgetattr(STDIN_FILENO, &t)
        saved = t
        var raw = t
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
    }

    public func restore() {
        guard var t = saved else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &t)
    }

    /// Makes `read` return within a fifth of a second.
    public func stop() { stopped.store(true, ordering: .relaxed) }

    /// Reads keys until the end of input or `stop()`, handing each to `onKey`. Blocks: run it on a thread of
    /// its own. Waits in `poll` a fifth of a second at a time, so that `stop()` is noticed.
    /// The corresponding C functions are `poll` and `read`.
    public func read(_ onKey: (KeyEvent) -> Void) {
        var parser = KeyEvent.Parser()
        var buffer = [UInt8](repeating: 0, count: 64)
        while !stopped.load(ordering: .relaxed) {
            var waiting = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&waiting, 1, 200)
            if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            if ready < 0 { break }
            let n = Glibc.read(STDIN_FILENO, &buffer, buffer.count)
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            if n <= 0 { break }
            for key in parser.parse(buffer[0..<n]) { onKey(key) }
            if let key = parser.flush() { onKey(key) }
        }
    }
}
