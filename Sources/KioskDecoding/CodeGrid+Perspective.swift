import GrayImage
import KioskCore

/// Perspective from the finder patterns themselves: a code seen aslant has bigger modules at its near finder
/// pattern than at its far one, and a grid laid evenly between their centres drifts off the timing patterns by
/// the middle. Each finder pattern's width along the line to its neighbour gives the module there; the two ends
/// of a side give that side's vanishing point, and the two sides the homography.
extension CodeGrid {
    /// The module in pixels along each side of a triple, at both of its ends: across (at the top left, at the top
    /// right) and down (at the top left, at the bottom left); nil where a finder pattern's edges are not clear.
    struct SideModules {
        var across: (near: Double, far: Double)
        var down: (near: Double, far: Double)

        init(across: (near: Double, far: Double), down: (near: Double, far: Double)) {
            self.across = across
            self.down = down
        }

        init?(_ centres: [SIMD2<Double>], module: Double, darkCentre: Bool, in frame: GrayFrame) {
            let (topLeft, topRight, bottomLeft) = (centres[0], centres[1], centres[2])
            func measured(_ at: SIMD2<Double>, towards: SIMD2<Double>) -> Double? {
                CodeGrid.moduleAlong(towards - at, at: at, module: module, darkCentre: darkCentre, in: frame)
            }
            guard let a0 = measured(topLeft, towards: topRight), let a1 = measured(topRight, towards: topLeft),
                let d0 = measured(topLeft, towards: bottomLeft), let d1 = measured(bottomLeft, towards: topLeft)
            else { return nil }
            across = (a0, a1)
            down = (d0, d1)
        }

        /// The modules between the finder centres along each side: its length over the geometric mean of its two
        /// ends' modules (exact for a side seen in perspective).
        func counts(_ centres: [SIMD2<Double>]) -> (across: Double, down: Double) {
            let (a, d) = (centres[1] - centres[0], centres[2] - centres[0])
            return (
                (a * a).sum().squareRoot() / (across.near * across.far).squareRoot(),
                (d * d).sum().squareRoot() / (down.near * down.far).squareRoot()
            )
        }

        /// How far apart the two sides' module counts are, a fraction of the larger; nil when a side counts fewer
        /// than 13 (a version 1 code's centres are 14 apart; a module's slack for the measuring).
        func apart(_ centres: [SIMD2<Double>]) -> Double? {
            let (across, down) = counts(centres)
            guard min(across, down) >= 13 else { return nil }
            return abs(across - down) / max(across, down)
        }
    }

    /// The homography of a code of `dimension` modules whose finder centres are `centres` (top left, top right,
    /// bottom left) and whose modules along its two sides are `modules`: each side a one-dimensional perspective
    /// map (modules of `near` pixels at the top left, `far` at the other end), the fourth corner where the lines
    /// from each far finder towards the other side's vanishing point meet. Nil when degenerate.
    static func perspective(_ centres: [SIMD2<Double>], modules: SideModules, dimension: Int) -> Homography? {
        let span = Double(dimension - 7)
        let (topLeft, topRight, bottomLeft) = (centres[0], centres[1], centres[2])
        // q(u) = near·u / (1 + c·u) from the top left's centre; q'(span) / q'(0) = far / near gives c, and the
        // vanishing point (u → ∞) is near / c along the side: homogeneous, so parallel sides (c = 0) still meet.
        func vanishing(_ end: SIMD2<Double>, _ ends: (near: Double, far: Double)) -> SIMD3<Double> {
            let side = end - topLeft
            let direction = side / (side * side).sum().squareRoot()
            let c = ((ends.near / ends.far).squareRoot() - 1) / span
            let point = topLeft * c + direction * ends.near
            return SIMD3(point.x, point.y, c)
        }
        func homogeneous(_ p: SIMD2<Double>) -> SIMD3<Double> { SIMD3(p.x, p.y, 1) }
        let acrossVanishing = vanishing(topRight, modules.across)
        let downVanishing = vanishing(bottomLeft, modules.down)
        let corner = cross(
            cross(homogeneous(topRight), downVanishing), cross(homogeneous(bottomLeft), acrossVanishing))
        guard abs(corner.z) > 1e-9 else { return nil }
        let fourth = SIMD2(corner.x, corner.y) / corner.z
        let far = Double(dimension) - 3.5
        // Finder patterns measured wrong (or not a code at all) can put the vanishing line across the code.
        guard
            let map = Homography(
                from: [SIMD2(3.5, 3.5), SIMD2(far, 3.5), SIMD2(3.5, far), SIMD2(far, far)],
                to: [topLeft, topRight, bottomLeft, fourth]),
            map.keepsInFront(corners(dimension))
        else { return nil }
        return map
    }

    /// Pixels per module at the finder pattern centred at `centre` along `direction`: its outer edges either way
    /// (the third change of colour from the centre, 3.5 modules out), 7 modules apart; nil when either edge is not
    /// found within 9 of the gate's `module`s or the two differ by more than 1.5:1.
    static func moduleAlong(
        _ direction: SIMD2<Double>, at centre: SIMD2<Double>, module: Double, darkCentre: Bool, in frame: GrayFrame
    ) -> Double? {
        let length = (direction * direction).sum().squareRoot()
        guard length > 0, module > 0 else { return nil }
        let unit = direction / length
        let step = module / 4
        let reach = Int((9 * module / step).rounded(.up))
        let greys = (-reach...reach).map { frame.bilinear(at: centre + unit * (Double($0) * step)) }
        guard let darkest = greys.min(), let lightest = greys.max(), lightest - darkest >= 24 else { return nil }
        let threshold = (darkest + lightest) / 2
        func isCentreColour(_ grey: Double) -> Bool { (grey < threshold) == darkCentre }
        guard isCentreColour(greys[reach]) else { return nil }
        // From the centre outwards: the third change of colour, between samples (linearly).
        func edge(_ way: Int) -> Double? {
            var changes = 0
            var index = reach
            var colour = true
            while index + way >= 0, index + way < greys.count {
                let next = isCentreColour(greys[index + way])
                if next != colour {
                    changes += 1
                    colour = next
                    if changes == 3 {
                        let (a, b) = (greys[index], greys[index + way])
                        let fraction = a == b ? 0.5 : (threshold - a) / (b - a)
                        return (Double(index - reach) + fraction * Double(way)).magnitude * step
                    }
                }
                index += way
            }
            return nil
        }
        guard let forwards = edge(1), let backwards = edge(-1),
            max(forwards, backwards) <= 1.5 * min(forwards, backwards)
        else { return nil }
        return (forwards + backwards) / 7
    }

    private static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }
}

extension CodeGrid {
    /// About how many pixels a module of this grid spans at its top-left finder pattern.
    var moduleSize: Double {
        let step = toFrame(SIMD2(4.5, 3.5)) - toFrame(SIMD2(3.5, 3.5))
        return (step * step).sum().squareRoot()
    }
}

extension CodeGrid {
    /// Whether three marks (top left, top right, bottom left) measure as one code's finder patterns: each one's
    /// outer edges clear along both sides (`SideModules`), and the modules between the centres along the two
    /// sides (each side's length over the geometric mean of its two ends' modules) within `sidesAgree` of each
    /// other, at least 13 (a version 1 code's centres are 14 apart; a module's slack for the measuring).
    static func measuresAsOne(_ topLeft: Finder, _ topRight: Finder, _ bottomLeft: Finder, in frame: GrayFrame) -> Bool
    {
        guard let apart = sidesApart(topLeft, topRight, bottomLeft, in: frame) else { return false }
        return apart <= sidesAgree
    }

    /// How far apart (a fraction of the larger) the two sides' module counts are, each side's length over the
    /// geometric mean of its ends' modules measured along it (`SideModules`); nil where a finder pattern's edges
    /// are not clear or a side counts fewer than 13 modules.
    static func sidesApart(_ topLeft: Finder, _ topRight: Finder, _ bottomLeft: Finder, in frame: GrayFrame) -> Double?
    {
        let centres = [topLeft.centre, topRight.centre, bottomLeft.centre]
        let module = (topLeft.module + topRight.module + bottomLeft.module) / 3
        return SideModules(centres, module: module, darkCentre: topLeft.darkCentre, in: frame)?.apart(centres)
    }

    /// How far apart the two sides' module counts may be (a tenth).
    static let sidesAgree = 0.1
}

extension CodeGrid {
    /// The four corners of a code of `dimension` modules, in module coordinates.
    static func corners(_ dimension: Int) -> [SIMD2<Double>] {
        let size = Double(dimension)
        return [SIMD2(0, 0), SIMD2(size, 0), SIMD2(0, size), SIMD2(size, size)]
    }

    /// This grid's four corners, in module coordinates.
    var corners: [SIMD2<Double>] { Self.corners(dimension) }

    /// Whether `other` lays the same modules on the frame (within a hundredth of a pixel at the code's corners).
    func isSame(as other: CodeGrid) -> Bool {
        dimension == other.dimension && darkOnLight == other.darkOnLight
            && corners.allSatisfy { corner in
                let d = toFrame(corner) - other.toFrame(corner)
                return (d * d).sum() < 1e-4
            }
    }
}

extension CodeGrid {
    /// Triples of a code seen in strong perspective (a pass tilted far away from the camera: its near finder
    /// pattern's modules up to `keystoneModules` times its far one's, which the gate's triples, of modules within
    /// 2:1, never pair), among marks however many (the decoder asks in frames of up to
    /// `KioskDecoder.findersForKeystoneTriples`), as top left, top right and bottom left, at most `limit`:
    /// each of three marks of one polarity as the corner, at 35 to 145 degrees, sides up to `steepestSides`:1,
    /// whose two sides count as many modules between the finder centres within `sidesAgree` (each side's length
    /// over the geometric mean of its ends' modules as measured along it, `moduleAlong`), the closest first. The
    /// gate's rough modules first keep the candidates within `keystoneSidesAgree` (at most `keystoneMeasured`);
    /// each mark's module towards another is measured once.
    static func keystoneTriples(_ finders: [Finder], in frame: GrayFrame, limit: Int) -> [(Finder, Finder, Finder)] {
        let count = finders.count
        guard count >= 3 else { return [] }
        var candidates: [(score: Double, corner: Int, across: Int, down: Int)] = []
        for i in 0..<(count - 2) {
            for j in (i + 1)..<(count - 1) where keystoneAlike(finders[i], finders[j]) {
                for k in (j + 1)..<count
                where keystoneAlike(finders[i], finders[k]) && keystoneAlike(finders[j], finders[k]) {
                    for (corner, p, q) in [(i, j, k), (j, i, k), (k, i, j)] {
                        let (c, a, b) = (finders[corner], finders[p], finders[q])
                        let (u, v) = (a.centre - c.centre, b.centre - c.centre)
                        let (lu, lv) = ((u * u).sum().squareRoot(), (v * v).sum().squareRoot())
                        guard lu > 0, lv > 0, max(lu, lv) <= steepestSides * min(lu, lv),
                            abs((u * v).sum()) <= steepestCosine * lu * lv
                        else { continue }
                        let across = lu / (c.module * a.module).squareRoot()
                        let down = lv / (c.module * b.module).squareRoot()
                        let apart = abs(across - down) / max(across, down)
                        guard min(across, down) >= 13, max(across, down) <= 175, apart <= keystoneSidesAgree else {
                            continue
                        }
                        // Rows run down the frame: the top right is the one turning clockwise to the bottom left.
                        let clockwise = u.x * v.y - u.y * v.x > 0
                        candidates.append((apart, corner, clockwise ? p : q, clockwise ? q : p))
                    }
                }
            }
        }
        var measuredAlong: [Int: Double] = [:]
        func module(_ from: Int, towards: Int) -> Double? {
            let key = from * count + towards
            if let known = measuredAlong[key] { return known > 0 ? known : nil }
            let (a, b) = (finders[from], finders[towards])
            let module = moduleAlong(
                b.centre - a.centre, at: a.centre, module: (a.module + b.module) / 2, darkCentre: a.darkCentre,
                in: frame)
            measuredAlong[key] = module ?? 0
            return module
        }
        var measured: [(apart: Double, finders: (Finder, Finder, Finder))] = []
        for candidate in candidates.sorted(by: { $0.score < $1.score }).prefix(keystoneMeasured) {
            let (corner, across, down) = (candidate.corner, candidate.across, candidate.down)
            guard let acrossNear = module(corner, towards: across), let acrossFar = module(across, towards: corner),
                let downNear = module(corner, towards: down), let downFar = module(down, towards: corner),
                let apart = SideModules(across: (acrossNear, acrossFar), down: (downNear, downFar))
                    .apart([finders[corner].centre, finders[across].centre, finders[down].centre]),
                apart <= sidesAgree
            else { continue }
            measured.append((apart, (finders[corner], finders[across], finders[down])))
        }
        return measured.sorted { $0.apart < $1.apart }.prefix(limit).map(\.finders)
    }

    /// How much larger a strongly tilted code's near finder pattern's modules may be than its far one's.
    static let keystoneModules = 3.5
    /// How far apart two sides' module counts from the gate's rough modules may be (a third).
    static let keystoneSidesAgree = 0.35
    /// Candidates whose sides `keystoneTriples` measures at most (the closest first).
    static let keystoneMeasured = 600

    private static func keystoneAlike(_ a: Finder, _ b: Finder) -> Bool {
        a.darkCentre == b.darkCentre && max(a.module, b.module) <= keystoneModules * min(a.module, b.module)
    }
}
