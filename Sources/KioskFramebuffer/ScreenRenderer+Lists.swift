import KioskCore
import SignedRecords

extension ScreenRenderer {
    /// Manual entry: what staff typed in a box, the roster matches numbered from 1, and the message.
    func manualEntryLayout(query: String, matches: [RosterGuest], message: String?, _ m: Metrics) -> ScreenLayout {
        let rows = matches.map { guest in
            var details = [guest.email, guest.guest.displayCode].filter { !$0.isEmpty }
            if guest.status == .cancelled { details.insert("CANCELLED", at: 0) }
            return ListRow(guest: guest, detail: details.joined(separator: "   ·   "))
        }
        return listLayout(title: "MANUAL ENTRY", query: query, rows: rows, message: message, m)
    }

    /// The undo screen: the door's last check-ins numbered from 1 (name, party, when, how many arrived), and
    /// the keys.
    func undoLayout(_ recent: [RecentCheckIn], message: String, _ m: Metrics) -> ScreenLayout {
        let rows = recent.map { r in
            ListRow(
                guest: r.guest,
                detail: ScreenText.undoDetail(r, time: timeText(r.checkIn.at)).replacingOccurrences(
                    of: "   ", with: "   ·   "))
        }
        return listLayout(title: ScreenText.undoHeadline, query: nil, rows: rows, message: message, m)
    }

    /// A numbered row of a list screen: the guest, and the line under the name.
    struct ListRow {
        var guest: RosterGuest
        var detail: String
    }

    /// A list screen: the title, what staff typed in a box (if any), the rows numbered from 1, the message.
    private func listLayout(title: String, query: String?, rows matches: [ListRow], message: String?, _ m: Metrics)
        -> ScreenLayout
    {
        var layout = ScreenLayout(width: m.width, height: m.height, background: ScreenPalette.slate)
        let column = Rect(x: m.margin, y: 0, width: m.width - 2 * m.margin, height: m.height)
        var y = m.margin / 2

        let title = FittedText.fit(title, font: fonts.bold, maxWidth: column.width, rule: rule(m, 22, min: 40))
        layout.texts.append(left(.title, title, .bold, ScreenPalette.mist, x: column.x, y: y))
        y += title.height + m.size(60)
        if let query { y = queryBox(query, at: y, in: column, m, &layout) }

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
        for (i, row) in matches.prefix(fitting).enumerated() {
            layout.texts += matchRow(
                i + 1, row, in: Rect(x: column.x, y: y, width: column.width, height: rowHeight), m,
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

    /// What staff typed, in a box, its end kept when long, with a caret; returns where the rows start.
    private func queryBox(_ query: String, at y: Int, in column: Rect, _ m: Metrics, _ layout: inout ScreenLayout)
        -> Int
    {
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
        return box.maxY + m.size(30)
    }

    /// One row: a numbered badge, the name and party size, then the detail line (a cancelled guest greyed).
    private func matchRow(_ n: Int, _ listed: ListRow, in row: Rect, _ m: Metrics, boxes: inout [ScreenLayout.Box])
        -> [ScreenLayout.Text]
    {
        let guest = listed.guest
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

        let detail = FittedText.fit(
            listed.detail, font: fonts.regular, maxWidth: textWidth, rule: rule(m, 32, min: 44))
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
