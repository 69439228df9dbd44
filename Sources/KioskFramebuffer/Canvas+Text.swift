extension Canvas {
    /// Draws one line of `text` with its baseline at `baseline`, starting at `x`; anti-aliased over what is
    /// already there. Glyphs come from the face's cache.
    public mutating func draw(_ text: String, font: FontFace, size: Int, x: Int, baseline: Int, color: RGBColor) {
        let packed = layout.pack(color)
        let stride = layout.stride
        let bpp = layout.bytesPerPixel
        let layout = self.layout
        let width = self.width
        let height = self.height
        var placed: [(FontFace.Glyph, Int)] = []
        font.forEachGlyph(text, size: size) { index, pen in
            guard let index, let glyph = font.glyph(for: index, size: size) else { return }
            placed.append((glyph, x + pen))
        }
        bytes.withUnsafeMutableBytes { raw in
            let base = raw.baseAddress!
            for (glyph, penX) in placed {
                let left = penX + glyph.left
                let top = baseline - glyph.top
                for row in 0..<glyph.rows {
                    let y = top + row
                    guard y >= 0, y < height else { continue }
                    for column in 0..<glyph.width {
                        let x = left + column
                        guard x >= 0, x < width else { continue }
                        let alpha = glyph.coverage[row * glyph.width + column]
                        guard alpha > 0 else { continue }
                        let offset = y * stride + x * bpp
                        if alpha == 255 {
                            Canvas.store(base, offset, bpp, packed)
                        } else {
                            let under = layout.unpack(Canvas.load(base, offset, bpp))
                            Canvas.store(base, offset, bpp, layout.pack(color.blended(over: under, alpha: alpha)))
                        }
                    }
                }
            }
        }
    }

    /// Draws fitted lines in `frame`, each line centred (or left-aligned) horizontally.
    public mutating func draw(_ text: FittedText, font: FontFace, in frame: Rect, color: RGBColor, centred: Bool = true)
    {
        for (i, line) in text.lines.enumerated() {
            let x = centred ? frame.midX - text.lineWidths[i] / 2 : frame.x
            draw(line, font: font, size: text.size, x: x, baseline: frame.y + text.baseline(ofLine: i), color: color)
        }
    }

    /// Strokes the outline of `rect` `thickness` pixels wide, inside it.
    public mutating func stroke(_ rect: Rect, thickness: Int, color: RGBColor) {
        fill(Rect(x: rect.x, y: rect.y, width: rect.width, height: thickness), with: color)
        fill(Rect(x: rect.x, y: rect.maxY - thickness, width: rect.width, height: thickness), with: color)
        fill(Rect(x: rect.x, y: rect.y, width: thickness, height: rect.height), with: color)
        fill(Rect(x: rect.maxX - thickness, y: rect.y, width: thickness, height: rect.height), with: color)
    }
}
