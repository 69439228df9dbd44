import KioskCore
import SignedRecords

extension ScreenRenderer {
    /// The verdict: a field in the verdict's colour; headline, the guest's name and party size in large
    /// type, the reason line, then the detail (when and where for a repeat; notes).
    func verdictLayout(_ verdict: Verdict, _ status: DoorStatus, _ m: Metrics) -> ScreenLayout {
        let field = ScreenPalette.field(for: verdict)
        let text = ScreenPalette.text(on: field)
        let soft = ScreenPalette.secondaryText(on: field)
        let bar = statusBar(status, m, field: field)
        let area = Rect(x: m.margin, y: m.margin / 2, width: m.width - 2 * m.margin, height: bar.rect.y - m.margin)

        var stack = TextStack()
        if let guest = verdict.guest {
            stack.add(.headline, verdict.headline, .bold, rule(m, 11, min: 20), text)
            addGuest(guest, to: &stack, m, color: text, gap: m.size(30))
            stack.add(
                .reason, verdict.reasonLine, .regular, rule(m, 17, single: 22, min: 30, lines: 3), text, gap: m.size(18)
            )
        } else {
            stack.add(.headline, verdict.headline, .bold, rule(m, 7.5, single: 11, min: 18, lines: 2), text)
            stack.add(
                .reason, verdict.reasonLine, .regular, rule(m, 14, single: 18, min: 28, lines: 3), text, gap: m.size(14)
            )
        }
        if case .alreadyCheckedIn(_, let at, let door, let double) = verdict {
            stack.add(
                .detail, ScreenText.checkedIn(time: timeText(at), door: door, doubleEntry: double), .bold,
                rule(m, 17, single: 22, min: 30, lines: 2),
                text, gap: m.size(50))
        }
        if let notes = verdict.guest.flatMap({ ScreenText.notes($0.notes) }) {
            stack.add(
                .notes, notes, .regular, rule(m, 20, single: 24, min: 32, lines: 3), soft, gap: m.size(50))
        }
        var layout = ScreenLayout(width: m.width, height: m.height, background: field)
        layout.texts = stack.layout(in: area, fonts: fonts)
        layout.statusBar = bar
        return layout
    }

    /// Confirm mode: the guest waits for Enter; what staff typed is shown as the number arrived.
    func confirmLayout(_ guest: GuestSummary, arrived: String, _ m: Metrics) -> ScreenLayout {
        let field = ScreenPalette.field(.green)
        let text = ScreenPalette.text(on: field)
        let soft = ScreenPalette.secondaryText(on: field)
        let area = Rect(x: m.margin, y: m.margin / 2, width: m.width - 2 * m.margin, height: m.height - m.margin)
        var stack = TextStack()
        stack.add(.headline, ScreenText.confirmHeadline, .bold, rule(m, 11, min: 20), text)
        addGuest(guest, to: &stack, m, color: text, gap: m.size(30))
        if let notes = ScreenText.notes(guest.notes) {
            stack.add(
                .notes, notes, .regular, rule(m, 20, single: 24, min: 32, lines: 3), soft,
                gap: m.size(40))
        }
        stack.add(
            .arrived, ScreenText.arrived(typed: arrived, partySize: guest.partySize), .bold, rule(m, 12, min: 20), text,
            gap: m.size(18))
        stack.add(
            .hint, ScreenText.confirmKeys, .regular,
            rule(m, 22, single: 28, min: 36, lines: 2), soft, gap: m.size(30))
        var layout = ScreenLayout(width: m.width, height: m.height, background: field)
        layout.texts = stack.layout(in: area, fonts: fonts)
        return layout
    }

    /// The name (up to 18 % of the screen's height, shrunk to fit, two lines at most) and the party size.
    private func addGuest(_ guest: GuestSummary, to stack: inout TextStack, _ m: Metrics, color: RGBColor, gap: Int) {
        stack.add(.name, guest.name, .bold, rule(m, 5.5, single: 8, min: 16, lines: 2), color, gap: gap)
        stack.add(
            .party, ScreenText.party(guest.partySize), .bold, rule(m, 10, min: 18),
            color, gap: m.size(40))
    }

    /// A fitting rule with sizes as fractions of the screen: `unit / preferred`, `unit / single`...
    func rule(_ m: Metrics, _ preferred: Double, single: Double? = nil, min: Double, lines: Int = 1) -> FittedText.Rule
    {
        FittedText.Rule(
            preferredSize: m.size(preferred), singleLineMinimum: single.map { m.size($0) }, minimumSize: m.size(min),
            maximumLines: lines)
    }
}
