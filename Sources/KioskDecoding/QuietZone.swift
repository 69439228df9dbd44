/// What counts as a code's quiet zone past a finder pattern (`FinderPatternGate.quietSides`).
enum QuietZone {
    /// One shade: no step between neighbouring samples of the band over half the pattern's contrast (or than the
    /// band differs from its light ring). Paper, a screen, or a dark backing behind a thin white border, shaded
    /// smoothly by glare or a shadow; not print, a plaid, a keyboard or a checkerboard, which go on past their
    /// finder-like marks.
    case oneShade
    /// Unmixed: the band's samples (all but one) on one side of the line between the pattern's centre and its light
    /// ring, three quarters of the way to the ring: no ink on paper, though a white marker stroke, dots or glare may
    /// be there (BoofCV's bright-spot photos draw them in the quiet zone on purpose), or a dark backing all through.
    case unmixed
}
