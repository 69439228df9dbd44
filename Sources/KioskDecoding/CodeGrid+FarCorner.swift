import GrayImage
import KioskCore

/// A code on a curved surface (a can, a bottle, a pass bent in a hand): three finder patterns place its top and
/// left sides well, and its timing patterns show, but its far corner lies off the grid the three (and the
/// alignment pattern, where there is one) give, so its far part is sampled a module or two off and its blocks are
/// past mending. The grid is then tried again with its far corner moved, a half module at a time along its rows and
/// columns up to two modules, the few moves whose far modules look sharpest first; the first whose code mends (as
/// any grid's does, `mended`: 3 check codewords kept spare when erasures are used, so a damaged block is taken for
/// another codeword about once in a million grids, and each move is one grid more) is the code. Only for a grid
/// whose format information reads within a bit of a valid word: a code's, where a grid of clutter reads it so in
/// about one grid in twenty.
extension CodeGrid {
    /// The grid with its far corner (its image of the point 3.5 modules in from the bottom right, as for the finder
    /// patterns) moved by `offset` modules along the grid's own rows and columns there, its three finder patterns'
    /// centres kept; nil when degenerate.
    func movingFarCorner(by offset: SIMD2<Double>) -> CodeGrid? {
        let far = Double(dimension) - 3.5
        let points = [SIMD2(3.5, 3.5), SIMD2(far, 3.5), SIMD2(3.5, far), SIMD2(far, far)]
        var images = points.map { toFrame($0) }
        let across = toFrame(SIMD2(far + 1, far)) - images[3]
        let down = toFrame(SIMD2(far, far + 1)) - images[3]
        images[3] += across * offset.x + down * offset.y
        guard let moved = Homography(from: points, to: images), moved.keepsInFront(corners) else { return nil }
        return CodeGrid(dimension: dimension, toFrame: moved, darkOnLight: darkOnLight)
    }

    /// This grid with its far corner moved (`farCornerOffsets`), at most `farCornerTries`, those whose modules in
    /// the far half of the code (where the move shifts them most) lie farthest from `levels` (each module's
    /// threshold as this grid read it) first: a module sampled at its centre is dark or light, one sampled across
    /// an edge is grey. One sample per module, so ranking every move costs about what mending two grids does.
    func farCornersMoved(in frame: GrayFrame, levels: [Double]) -> [CodeGrid] {
        let ranked = Self.farCornerOffsets.compactMap { offset -> (contrast: Double, grid: CodeGrid)? in
            guard let moved = movingFarCorner(by: offset) else { return nil }
            var (sum, count) = (0.0, 0)
            for row in 0..<dimension {
                for column in max(0, dimension - 1 - row)..<dimension {
                    let centre = SIMD2(Double(column) + 0.5, Double(row) + 0.5)
                    sum += abs(frame.bilinear(at: moved.toFrame(centre)) - levels[row * dimension + column])
                    count += 1
                }
            }
            return (sum / Double(max(count, 1)), moved)
        }
        return ranked.sorted { $0.contrast > $1.contrast }.prefix(Self.farCornerTries).map { $0.grid }
    }

    /// Grids with the far corner moved whose codes are mended at most (the best by contrast).
    static let farCornerTries = 4

    /// The far corner's moves tried, in modules: half-module steps up to `farCornerReach` each way, the nearest
    /// first.
    static let farCornerOffsets: [SIMD2<Double>] = {
        let steps = Int(farCornerReach * 2)
        var offsets: [SIMD2<Double>] = []
        for i in -steps...steps {
            for j in -steps...steps where i != 0 || j != 0 { offsets.append(SIMD2(Double(i), Double(j)) / 2) }
        }
        return offsets.sorted { ($0 * $0).sum() < ($1 * $1).sum() }
    }()

    /// How far the far corner is moved at most, in modules.
    static let farCornerReach = 2.0

    /// How near a valid word (in bits) the format information must read for a grid whose blocks do not mend to be
    /// tried bent: its far corner moved, or a grid sampled between its timing patterns kept.
    static let bentGridFormatDistance = 1
}
