/// Text broken into lines and sized to fit a width: the result of `FittedText.fit`.
public struct FittedText: Equatable, Sendable {
    public var lines: [String]
    /// Pixel size (em) of the font.
    public var size: Int
    public var lineWidths: [Int]
    /// Distance between baselines.
    public var lineHeight: Int
    /// Baseline of the first line below the block's top.
    public var ascent: Int
    /// Below the last baseline.
    public var descent: Int

    public var width: Int { lineWidths.max() ?? 0 }
    public var height: Int { lines.isEmpty ? 0 : ascent + (lines.count - 1) * lineHeight + descent }

    public func baseline(ofLine line: Int) -> Int { ascent + line * lineHeight }

    /// How one piece of text may be fitted.
    public struct Rule: Equatable, Sendable {
        /// The size used when the text fits.
        public var preferredSize: Int
        /// Shrink on one line down to this size before breaking into more lines.
        public var singleLineMinimum: Int
        /// Never smaller than this; beyond it, the last line ends in "…".
        public var minimumSize: Int
        public var maximumLines: Int

        public init(preferredSize: Int, singleLineMinimum: Int? = nil, minimumSize: Int, maximumLines: Int = 1) {
            self.preferredSize = max(1, preferredSize)
            self.minimumSize = max(1, min(minimumSize, self.preferredSize))
            self.singleLineMinimum = max(
                self.minimumSize, min(singleLineMinimum ?? self.minimumSize, self.preferredSize))
            self.maximumLines = max(1, maximumLines)
        }

        /// Every size scaled by `factor` (for a screen that needs everything smaller).
        public func scaled(by factor: Double) -> Rule {
            func s(_ v: Int) -> Int { max(1, Int((Double(v) * factor).rounded(.down))) }
            return Rule(
                preferredSize: s(preferredSize), singleLineMinimum: s(singleLineMinimum),
                minimumSize: s(minimumSize), maximumLines: maximumLines)
        }
    }

    /// Fits `text` into `maxWidth`: the preferred size if it fits; else shrunk on one line (not below
    /// `singleLineMinimum`); else broken at spaces into up to `maximumLines` lines, shrinking to
    /// `minimumSize`; else cut with "…".
    public static func fit(_ text: String, font: FontFace, maxWidth: Int, rule: Rule) -> FittedText {
        let text = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        let preferredWidth = font.width(of: text, size: rule.preferredSize)
        if preferredWidth <= maxWidth {
            return make([text], size: rule.preferredSize, font: font)
        }
        // One line: guess the size from the width, then step down until it fits.
        var size = max(rule.singleLineMinimum, rule.preferredSize * maxWidth / max(1, preferredWidth))
        while size > rule.singleLineMinimum && font.width(of: text, size: size) > maxWidth { size -= max(1, size / 50) }
        size = max(size, rule.singleLineMinimum)
        if font.width(of: text, size: size) <= maxWidth {
            return make([text], size: size, font: font)
        }
        // Several lines.
        if rule.maximumLines > 1 {
            var size = rule.singleLineMinimum
            while size >= rule.minimumSize {
                let lines = wrap(text, font: font, size: size, maxWidth: maxWidth)
                if lines.count <= rule.maximumLines && lines.allSatisfy({ font.width(of: $0, size: size) <= maxWidth })
                {
                    return make(
                        balanced(text, lines, font: font, size: size, maxWidth: maxWidth), size: size, font: font)
                }
                if size == rule.minimumSize { break }
                size = max(rule.minimumSize, size - max(1, size / 25))
            }
        }
        // Cut: at the smallest size, keep what fits and end with an ellipsis.
        let size2 = rule.minimumSize
        var lines = rule.maximumLines > 1 ? wrap(text, font: font, size: size2, maxWidth: maxWidth) : [text]
        let cut = lines.count > rule.maximumLines
        lines = Array(lines.prefix(rule.maximumLines))
        for i in lines.indices where font.width(of: lines[i], size: size2) > maxWidth || (cut && i == lines.count - 1) {
            lines[i] = ellipsised(
                lines[i], font: font, size: size2, maxWidth: maxWidth, always: cut && i == lines.count - 1)
        }
        return make(lines, size: size2, font: font)
    }

    /// Greedy line breaking at spaces.
    static func wrap(_ text: String, font: FontFace, size: Int, maxWidth: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if current.isEmpty || font.width(of: candidate, size: size) <= maxWidth {
                current = candidate
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// The same number of lines at the narrowest width that keeps it, so the last line is not a lone word.
    static func balanced(_ text: String, _ lines: [String], font: FontFace, size: Int, maxWidth: Int) -> [String] {
        guard lines.count > 1 else { return lines }
        var low = maxWidth / 2
        var high = maxWidth
        var best = lines
        while low < high {
            let middle = (low + high) / 2
            let candidate = wrap(text, font: font, size: size, maxWidth: middle)
            if candidate.count == lines.count && candidate.allSatisfy({ font.width(of: $0, size: size) <= middle }) {
                best = candidate
                high = middle
            } else {
                low = middle + 1
            }
        }
        return best
    }

    /// The longest prefix of `line` that fits with "…" after it.
    static func ellipsised(_ line: String, font: FontFace, size: Int, maxWidth: Int, always: Bool) -> String {
        if !always && font.width(of: line, size: size) <= maxWidth { return line }
        var characters = Array(line)
        while !characters.isEmpty {
            let candidate = String(characters).trimmingTrailingSpaces + "…"
            if font.width(of: candidate, size: size) <= maxWidth { return candidate }
            characters.removeLast()
        }
        return "…"
    }

    /// The longest suffix of `line` that fits with "…" before it: for typed text, whose end matters.
    public static func keepingEnd(_ line: String, font: FontFace, size: Int, maxWidth: Int) -> String {
        if font.width(of: line, size: size) <= maxWidth { return line }
        var characters = Array(line)
        while !characters.isEmpty {
            characters.removeFirst()
            let candidate = "…" + String(characters)
            if font.width(of: candidate, size: size) <= maxWidth { return candidate }
        }
        return "…"
    }

    static func make(_ lines: [String], size: Int, font: FontFace) -> FittedText {
        let metrics = font.verticalMetrics(size: size)
        return FittedText(
            lines: lines, size: size, lineWidths: lines.map { font.width(of: $0, size: size) },
            lineHeight: Int((Double(size) * 1.15).rounded()), ascent: metrics.ascender, descent: metrics.descender)
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
