import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The kernel's text console (fbcon), which draws its cursor and messages over the framebuffer.
///
/// The kiosk service or the HIL test usually does this before starting the kiosk; this helper does the
/// same from the program. Every failure is reported, never thrown: a screen with a stray cursor still works.
public enum TextConsole {
    /// Unbinds each virtual console whose `name` says "frame buffer" (writes `0` to
    /// `/sys/class/vtconsole/vtconN/bind`) and stops the fbcon cursor blinking. Returns what failed.
    @discardableResult
    public static func release(sysfs: String = "/sys") -> [String] {
        var problems: [String] = []
        let directory = sysfs + "/class/vtconsole"
        let consoles = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        if consoles.isEmpty { problems.append("no virtual consoles under \(directory)") }
        for console in consoles.sorted() where console.hasPrefix("vtcon") {
            let name = (try? String(contentsOfFile: "\(directory)/\(console)/name", encoding: .utf8)) ?? ""
            guard name.lowercased().contains("frame buffer") else { continue }
            if let problem = writeFile("0", to: "\(directory)/\(console)/bind") { problems.append(problem) }
        }
        if let problem = writeFile("0", to: sysfs + "/class/graphics/fbcon/cursor_blink") { problems.append(problem) }
        return problems
    }

    /// Hides the text cursor of a terminal (`ESC [ ? 25 l`), such as `/dev/tty1`. Returns what failed.
    @discardableResult
    public static func hideCursor(terminal: String = "/dev/tty1") -> String? {
        writeFile("\u{1B}[?25l", to: terminal)
    }

    /// Writes `text` to an existing file; nil on success, else what failed ("write on PATH failed: ...").
    /// The corresponding C calls are `open` and `write`.
    private static func writeFile(_ text: String, to path: String) -> String? {
        let bytes = Array(text.utf8)
        do throws(SystemCallError) {
            let fd = try SystemCall.run("open") { open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY) }
            defer { close(fd) }
            let written = try SystemCall.run("write") {
                bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            }
            guard written == bytes.count else {
                return "write on \(path) failed: wrote \(written) of \(bytes.count) bytes"
            }
            return nil
        } catch {
            return "\(error.call) on \(path) failed: \(error.errno.text) (errno \(error.errno.rawValue))"
        }
    }
}
