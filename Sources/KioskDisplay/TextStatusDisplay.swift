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
            lines = [
                status.camera.isDisconnected
                    ? "Camera disconnected: type a code or a name and press Enter (the camera reconnects by itself)"
                    : "Ready: hold the QR pass to the camera, or type a code or a name and press Enter",
                statusLine(status),
            ]
        case .verdict(let result, let status):
            let v = result.verdict
            lines.append(paint(v.colour, "\(v.colour.rawValue.uppercased()) ▌ \(v.headline)"))
            if let g = v.guest {
                lines.append("  \(g.name)   \(ScreenText.party(g.partySize))")
                if let notes = ScreenText.notes(g.notes) { lines.append("  " + notes) }
            }
            lines.append("  \(v.reasonLine)")
            if case .alreadyCheckedIn(_, let at, let door, let double) = v {
                lines.append("  " + ScreenText.checkedIn(time: Self.timeText(at), door: door, doubleEntry: double))
            }
            lines.append(statusLine(status))
        case .manualEntry(let query, let matches, let message):
            lines.append("Manual entry: \(query)_")
            for (i, g) in matches.enumerated() {
                lines.append(
                    "  \(i + 1). \(g.name) <\(g.email)> \(ScreenText.party(g.partySize)) \(g.status == .cancelled ? "[cancelled]" : "") \(g.guest.displayCode)"
                )
            }
            if let message { lines.append("  \(message)") }
        case .undo(let recent, let message):
            lines.append("\(ScreenText.undoHeadline) (this door's last check-ins, newest first)")
            for (i, r) in recent.enumerated() {
                lines.append(
                    "  \(i + 1). \(r.guest.name)   \(ScreenText.undoDetail(r, time: Self.timeText(r.checkIn.at)))")
            }
            lines.append("  \(message)")
        case .confirm(let g, let arrived):
            lines.append(paint(.green, "\(ScreenText.confirmHeadline): \(g.name)   \(ScreenText.party(g.partySize))"))
            if let notes = ScreenText.notes(g.notes) { lines.append("  " + notes) }
            lines.append("  \(ScreenText.arrived(typed: arrived, partySize: g.partySize))   \(ScreenText.confirmKeys)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func statusLine(_ s: DoorStatus) -> String {
        let roster = s.roster.label(now: Date()).map { " | \($0)" } ?? ""
        let lan = s.lanLabel.map { " | \($0)" } ?? ""
        let line =
            "  [\(s.door) | \(s.mode.rawValue) | \(s.connection.label)\(lan) | \(s.pendingCheckIns) pending\(roster) | camera: \(s.camera.label)]"
        guard let warning = s.warning else { return line }
        return line + "\n  " + paint(.red, "! \(warning)")
    }

    /// ANSI background and foreground for a verdict's colour field.
    private func paint(_ colour: VerdictColour, _ text: String) -> String {
        guard colours else { return text }
        let code =
            switch colour {
            case .green: "42;30"
            case .amber: "43;30"
            case .blue: "44;97"
            case .red: "41;97"
            }
        return "\u{1B}[1;\(code)m\(text)\u{1B}[0m"
    }

    static func timeText(_ date: Date) -> String {
        let f = DateFormatter()
        f.dateFormat = "HH:mm:ss"
        return f.string(from: date)
    }
}
