import Foundation
import KioskCore

#if canImport(Glibc)
import Glibc
#endif

/// The door's keyboard: standard input, switched to raw mode when it is a terminal so single keys
/// (Enter, Esc, digits) arrive at once. Restores the terminal when finished.
public final class KeyboardInput: Sendable {
    private let saved: termios?

    public init() {
        guard isatty(STDIN_FILENO) == 1 else { saved = nil; return }
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

    /// Keys as they are typed; finishes at end of input.
    public func keys() -> AsyncStream<KeyEvent> {
        AsyncStream { continuation in
            let thread = Thread {
                var parser = KeyEvent.Parser()
                var buffer = [UInt8](repeating: 0, count: 64)
                while true {
                    let n = read(STDIN_FILENO, &buffer, buffer.count)
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { break }
                    for key in parser.parse(buffer[0..<n]) { continuation.yield(key) }
                    if let key = parser.flush() { continuation.yield(key) }
                }
                continuation.finish()
            }
            thread.start()
        }
    }
}
