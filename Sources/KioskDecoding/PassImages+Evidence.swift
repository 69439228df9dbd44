import KioskCore

/// What the gated cascade goes on on: evidence of a code, before any read and after each.
extension PassImages {
    /// Before any read, evidence of a code for the whole cascade: two square marks (`FinderPatternGate.isSquare`)
    /// with a code's two timing patterns where they would be (`TimingPattern`) and its quiet zone, one shade, past
    /// one of its finder patterns' six outer sides at least; or three square marks placed as a code's corners with
    /// its quiet zone past five of the six (a code whose timing patterns blur, glare or a bright spot hide). A
    /// checkerboard, a plaid, print, a keyboard or moire give marks joined by alternations like timing patterns,
    /// even three placed as a code's corners, but their marks are seldom square and their texture goes on past them.
    mutating func showsACode() -> Bool {
        let square = squareFinders()
        let frame = working
        return TimingPattern.joinsTwo(of: square, in: frame) {
            FinderPatternGate.hasQuietSides(1, of: $0, by: .oneShade, in: frame)
        }
            || FinderPatternGate.formACode(square) {
                FinderPatternGate.hasQuietSides(5, of: $0, by: .oneShade, in: frame)
            }
    }

    /// After a read, evidence of another code outside the codes `read` (a photo of several, two guests' phones):
    /// three marks placed as a code's corners, two of them square at least, with its quiet zone past four of their six
    /// outer sides, or two square marks with the code's timing patterns and its quiet zone past two sides. Here the
    /// quiet zone need only be unmixed (`QuietZone.unmixed`): a frame that showed one code shows codes, and a marker
    /// stroke or glare beside the next must not hide it (BoofCV's bright-spot photos), nor one of its finder patterns'
    /// squareness. Stripes, plaids and print beside a pass give three such marks far more often with one square mark
    /// or none, and two joined ones with one quiet side (cluttered frames with a code: the cascade went on after the
    /// read on 9 of 120 with any marks and one side, on 4 with these; docs/benchmarks/2026-11-29-decoder.md). The third mark may be one the
    /// gate sees aslant (`Finder.isAslant`, counted otherwise for the grids only): a card seen at a slant beside the
    /// one read shows its far finder pattern squashed across the rows (BoofCV's rotation photos; still 4 of 120).
    mutating func showsAnotherCode(outside read: [Sighting]) -> Bool {
        let frame = working
        func outside(_ finders: [Finder]) -> [Finder] {
            finders.filter { finder in !read.contains { $0.covers(finder.centre) } }
        }
        let square = outside(squareFinders())
        func squareCorners(_ triangle: FinderTriangle) -> Int {
            [triangle.corner, triangle.p, triangle.q].filter { point in square.contains { $0.centre == point } }.count
        }
        func isACode(_ triangle: FinderTriangle) -> Bool {
            squareCorners(triangle) >= 2 && FinderPatternGate.hasQuietSides(4, of: triangle, by: .unmixed, in: frame)
        }
        let fromUprightMarks =
            FinderPatternGate.formACode(outside(finders()), accepting: isACode)
            || TimingPattern.joinsTwo(of: square, in: frame) {
                FinderPatternGate.hasQuietSides(2, of: $0, by: .unmixed, in: frame)
            }
        if fromUprightMarks { return true }
        // Two square marks and an aslant one, in a look of their own: in the look above, an aslant mark at a fourth
        // corner vetoed triples of upright marks (`formACode`'s lattice check; two BoofCV bright-spot codes lost).
        // Triples of three square marks were the look above's: only those with an aslant corner are asked here, the
        // cheap question first.
        let aslant = outside(allFinders().filter(\.isAslant))
        guard !aslant.isEmpty else { return false }
        return FinderPatternGate.formACode(square + aslant) { triangle in
            [triangle.corner, triangle.p, triangle.q].contains { point in aslant.contains { $0.centre == point } }
                && isACode(triangle)
        }
    }

    /// The square ones among the marks the gate counts (`finders()`).
    mutating func squareFinders() -> [Finder] {
        if let squareMarks { return squareMarks }
        let frame = working
        let square = finders().filter { FinderPatternGate.isSquare($0, in: frame) }
        squareMarks = square
        return square
    }
}
