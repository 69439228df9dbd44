import KioskCore

extension ScreenRenderer {
    /// Manual entry: what staff typed in a box, the roster matches numbered from 1, and the message.
    func manualEntryLayout(query: String, matches: [RosterGuest], message: String?, _ m: Metrics) -> ScreenLayout {
        var layout = ScreenLayout(width: m.width, height: m.height, background: ScreenPalette.slate)
        let column = Rect(x: m.margin, y: 0, width: m.width - 2 * m.margin, height: m.height)
        var y = m.margin / 2

        let title = FittedText.fit("MANUAL ENTRY", font: fonts.bold, maxWidth: column.width, rule: rule(m, 22, min: 40))
        layout.texts.append(left(.title, title, .bold, ScreenPalette.mist, x: column.x, y: y))
        y += title.height + m.size(60)

        // The typed text, its end kept when long, with a caret.
        let box = Rect(x: column.x, y: y, width: column.width, height: m.size(7.5))
        layout.boxes.append(.init(rect: box, color: ScreenPalette.paper))
        let padding = m.size(40)
        let size = m.size(13)
        let caretWidth = max(3, size / 12)
        let shown = FittedText.keepingEnd(
            query, font: fonts.bold, size: size, maxWidth: box.width - 2 * padding - 2 * caretWidth)
        let typed = FittedText.make([shown], size: size, font: fonts.bold)
        let typedTop = box.midY - typed.height / 2
        layout.texts.append(left(.query, typed, .bold, ScreenPalette.ink, x: box.x + padding, y: typedTop))
        let caretX = box.x + padding + typed.width + caretWidth
        layout.boxes.append(
            .init(
                rect: Rect(x: caretX, y: box.y + box.height / 6, width: caretWidth, height: box.height * 2 / 3),
                color: ScreenPalette.ink))
        y = box.maxY + m.size(30)

        // The message sits at the bottom; matches fill the space between.
        var messageTop = m.height - m.margin / 2
        if let message, !message.isEmpty {
            let fitted = FittedText.fit(
                message, font: fonts.regular, maxWidth: column.width, rule: rule(m, 24, single: 28, min: 36, lines: 2))
            messageTop -= fitted.height
            layout.texts.append(left(.message, fitted, .regular, ScreenPalette.highlight, x: column.x, y: messageTop))
        }
        let rowHeight = m.size(8.5)
        let available = messageTop - m.size(40) - y
        var fitting = max(0, available / rowHeight)
        if fitting < matches.count { fitting = max(0, (available - m.size(20)) / rowHeight) }
        for (i, guest) in matches.prefix(fitting).enumerated() {
            layout.texts += matchRow(
                i + 1, guest, in: Rect(x: column.x, y: y, width: column.width, height: rowHeight), m,
                boxes: &layout.boxes)
            y += rowHeight
        }
        if matches.count > fitting {
            let more = FittedText.fit(
                "+ \(matches.count - fitting) more", font: fonts.regular, maxWidth: column.width,
                rule: rule(m, 26, min: 40))
            layout.texts.append(left(.more, more, .regular, ScreenPalette.mist, x: column.x, y: y))
        }
        return layout
    }

    /// One match: a numbered badge, the name and party size, then e-mail, code and a cancelled mark.
    private func matchRow(_ n: Int, _ guest: RosterGuest, in row: Rect, _ m: Metrics, boxes: inout [ScreenLayout.Box])
        -> [ScreenLayout.Text]
    {
        var texts: [ScreenLayout.Text] = []
        let badgeSide = row.height * 3 / 4
        let badge = Rect(x: row.x, y: row.y + (row.height - badgeSide) / 2, width: badgeSide, height: badgeSide)
        let cancelled = guest.status == .cancelled
        boxes.append(.init(rect: badge, color: cancelled ? ScreenPalette.mist : ScreenPalette.highlight))
        let number = FittedText.fit(String(n), font: fonts.bold, maxWidth: badgeSide, rule: rule(m, 16, min: 30))
        texts.append(
            ScreenLayout.Text(
                role: .matchNumber(n), text: number, weight: .bold, color: ScreenPalette.ink,
                frame: Rect(
                    x: badge.midX - number.width / 2, y: badge.midY - number.height / 2 + number.descent / 3,
                    width: number.width, height: number.height),
                centred: true))

        let textX = badge.maxX + m.size(40)
        let textWidth = row.maxX - textX
        let party = FittedText.fit(
            guest.partySize == 1 ? "party of 1" : "party of \(guest.partySize)", font: fonts.regular,
            maxWidth: textWidth / 3, rule: rule(m, 22, min: 40))
        let nameWidth = textWidth - party.width - m.size(40)
        let name = FittedText.fit(
            guest.name, font: fonts.bold, maxWidth: nameWidth, rule: rule(m, 17, single: 26, min: 26))
        let nameTop = row.y + m.size(90)
        texts.append(left(.matchName(n), name, .bold, cancelled ? ScreenPalette.mist : .white, x: textX, y: nameTop))
        texts.append(
            ScreenLayout.Text(
                role: .matchParty(n), text: party, weight: .regular, color: ScreenPalette.mist,
                frame: Rect(
                    x: row.maxX - party.width, y: nameTop + name.ascent - party.ascent, width: party.width,
                    height: party.height),
                centred: false))

        var details = [guest.email, guest.guest.displayCode].filter { !$0.isEmpty }
        if cancelled { details.insert("CANCELLED", at: 0) }
        let detail = FittedText.fit(
            details.joined(separator: "   ·   "), font: fonts.regular, maxWidth: textWidth, rule: rule(m, 32, min: 44))
        texts.append(
            left(
                .matchDetail(n), detail, .regular, cancelled ? RGBColor(hex: 0xFF8A80) : ScreenPalette.mist, x: textX,
                y: nameTop + name.height))
        return texts
    }

    private func left(
        _ role: ScreenLayout.Role, _ text: FittedText, _ weight: FontWeight, _ color: RGBColor, x: Int, y: Int
    ) -> ScreenLayout.Text {
        ScreenLayout.Text(
            role: role, text: text, weight: weight, color: color,
            frame: Rect(x: x, y: y, width: text.width, height: text.height), centred: false)
    }
}
