import Foundation
import KioskCore

/// The text status display: for headless boxes and SSH. Each screen is printed as a block of lines;
/// on a terminal the verdict's colour is shown with ANSI colours.
public final class TextStatusDisplay: StatusDisplay {
    private let write: (String) -> Void
    private let colours: Bool
    public private(set) var lastScreen: DoorScreen?

    /// - Parameters:
    ///   - colours: ANSI colours (use when the output is a terminal).
    ///   - write: where the text goes (standard error by default, since replay prints JSON on standard output).
    public init(colours: Bool = false, write: @escaping (String) -> Void = TextStatusDisplay.standardError) {
        self.colours = colours
        self.write = write
    }

    public static func standardError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    public func show(_ screen: DoorScreen) {
        lastScreen = screen
        write(render(screen))
    }

    /// The text of one screen.
    public func render(_ screen: DoorScreen) -> String {
        var lines: [String] = []
        switch screen {
        case .ready(let status):
            lines = [status.cameraDisconnected
                     ? "Camera disconnected: type a code or a name and press Enter (the camera reconnects by itself)"
                     : "Ready: hold the QR pass to the camera, or type a code or a name and press Enter", statusLine(status)]
        case .verdict(let result, let status):
            let v = result.verdict
            lines.append(paint(v, "\(Self.colourName(v)) ▌ \(v.headline)"))
            if let g = v.guest {
                lines.append("  \(g.name)   party of \(g.partySize)")
                if !g.notes.isEmpty { lines.append("  Notes: \(g.notes)") }
            }
            lines.append("  \(v.reasonLine)")
            if case .alreadyCheckedIn(_, let at, let door) = v {
                lines.append("  Checked in \(Self.timeText(at)) at \(door)")
            }
            lines.append(statusLine(status))
        case .manualEntry(let query, let matches, let message):
            lines.append("Manual entry: \(query)_")
            for (i, g) in matches.enumerated() {
                lines.append("  \(i + 1). \(g.name) <\(g.email)> party of \(g.partySize) \(g.status == .cancelled ? "[cancelled]" : "") \(g.guest.displayCode)")
            }
            if let message { lines.append("  \(message)") }
        case .confirm(let g, let arrived):
            lines.append("CONFIRM CHECK-IN: \(g.name)   party of \(g.partySize)")
            if !g.notes.isEmpty { lines.append("  Notes: \(g.notes)") }
            lines.append("  Arrived: \(arrived.isEmpty ? String(g.partySize) : arrived)   Enter: check in   digits: how many arrived   Esc: cancel")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func statusLine(_ s: DoorStatus) -> String {
        "  [\(s.door) | \(s.mode.rawValue) | \(s.online ? "online" : "offline") | \(s.pendingCheckIns) pending | camera: \(s.camera)]"
    }

    /// The colour field the framebuffer draws for a verdict, named.
    public static func colourName(_ v: Verdict) -> String {
        switch v {
        case .admitted, .awaitingConfirmation: "GREEN"
        case .alreadyCheckedIn: "AMBER"
        case .notValidHere, .cancelled, .recordFailed: "RED"
        case .notInRoster: "BLUE"
        }
    }

    private func paint(_ v: Verdict, _ text: String) -> String {
        guard colours else { return text }
        let code = switch Self.colourName(v) {
        case "GREEN": "42;30"
        case "AMBER": "43;30"
        case "BLUE": "44;97"
        default: "41;97"
        }
        return "\u{1B}[1;\(code)m\(text)\u{1B}[0m"
    }

    static func timeText(_ date: Date) -> String {
        let f = DateFormatter()
        f.dateFormat = "HH:mm:ss"
        return f.string(from: date)
    }
}
