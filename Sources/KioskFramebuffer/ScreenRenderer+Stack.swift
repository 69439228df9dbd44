/// A column of centred text blocks, fitted to a width and centred vertically in an area: the verdict and
/// confirm screens.
struct TextStack {
    struct Block {
        var role: ScreenLayout.Role
        var text: String
        var weight: FontWeight
        var rule: FittedText.Rule
        var color: RGBColor
        /// Space above the block (ignored for the first).
        var gap: Int
    }

    var blocks: [Block] = []

    mutating func add(
        _ role: ScreenLayout.Role, _ text: String, _ weight: FontWeight, _ rule: FittedText.Rule, _ color: RGBColor,
        gap: Int = 0
    ) {
        guard !text.isEmpty else { return }
        blocks.append(Block(role: role, text: text, weight: weight, rule: rule, color: color, gap: gap))
    }

    /// Fits every block to `area`'s width (less nothing: `area` already has its margins) and centres the
    /// column in `area`; when it is too tall, every size shrinks in proportion.
    func layout(in area: Rect, fonts: FontSet) -> [ScreenLayout.Text] {
        var factor = 1.0
        var fitted: [FittedText] = []
        for _ in 0..<4 {
            fitted = blocks.map { block in
                FittedText.fit(
                    block.text, font: fonts[block.weight], maxWidth: area.width, rule: block.rule.scaled(by: factor))
            }
            let total = totalHeight(fitted, factor: factor)
            if total <= area.height { break }
            factor *= Double(area.height) / Double(total) * 0.98
        }
        var y = area.y + max(0, (area.height - totalHeight(fitted, factor: factor)) / 2)
        var texts: [ScreenLayout.Text] = []
        for (i, (block, text)) in zip(blocks, fitted).enumerated() {
            if i > 0 { y += Int(Double(block.gap) * factor) }
            let frame = Rect(x: area.midX - text.width / 2, y: y, width: text.width, height: text.height)
            texts.append(
                ScreenLayout.Text(
                    role: block.role, text: text, weight: block.weight, color: block.color, frame: frame, centred: true)
            )
            y += text.height
        }
        return texts
    }

    private func totalHeight(_ fitted: [FittedText], factor: Double) -> Int {
        var total = 0
        for (i, (block, text)) in zip(blocks, fitted).enumerated() {
            total += text.height + (i > 0 ? Int(Double(block.gap) * factor) : 0)
        }
        return total
    }
}
