import KioskCore

/// A projective map of the plane (a photo of a flat thing: perspective), from four points and their images.
struct Homography: Sendable {
    /// Row-major 3×3, the last entry 1.
    private let m: [Double]

    /// The map taking each of `from` (four points, no three on a line) to the same-index point of `to`; nil when
    /// the points are degenerate.
    init?(from: [SIMD2<Double>], to: [SIMD2<Double>]) {
        guard from.count == 4, to.count == 4 else { return nil }
        // x' = (a x + b y + c) / (g x + h y + 1), y' = (d x + e y + f) / (g x + h y + 1): eight linear equations.
        var rows: [[Double]] = []
        for (p, q) in zip(from, to) {
            rows.append([p.x, p.y, 1, 0, 0, 0, -p.x * q.x, -p.y * q.x, q.x])
            rows.append([0, 0, 0, p.x, p.y, 1, -p.x * q.y, -p.y * q.y, q.y])
        }
        guard let solution = Self.solved(rows) else { return nil }
        m = solution + [1]
    }

    /// Whether every point of the convex hull of `points` has a finite image on the same side of the vanishing line
    /// (the map's denominator, affine in the point, of one sign and not near zero at each of them): a grid whose
    /// code the vanishing line crosses is no photo of a code, and its images there are infinite or not numbers.
    func keepsInFront(_ points: [SIMD2<Double>]) -> Bool {
        let denominators = points.map { m[6] * $0.x + m[7] * $0.y + m[8] }
        return denominators.allSatisfy { $0 > 1e-9 } || denominators.allSatisfy { $0 < -1e-9 }
    }

    /// The image of `point`.
    func callAsFunction(_ point: SIMD2<Double>) -> SIMD2<Double> {
        let w = m[6] * point.x + m[7] * point.y + m[8]
        return SIMD2(m[0] * point.x + m[1] * point.y + m[2], m[3] * point.x + m[4] * point.y + m[5]) / w
    }

    /// Gaussian elimination with partial pivoting on an n×(n+1) augmented matrix; nil when singular.
    private static func solved(_ matrix: [[Double]]) -> [Double]? {
        var a = matrix
        let n = a.count
        for column in 0..<n {
            guard let pivot = (column..<n).max(by: { abs(a[$0][column]) < abs(a[$1][column]) }),
                abs(a[pivot][column]) > 1e-12
            else { return nil }
            a.swapAt(column, pivot)
            for row in 0..<n where row != column {
                let factor = a[row][column] / a[column][column]
                guard factor != 0 else { continue }
                for k in column...n { a[row][k] -= factor * a[column][k] }
            }
        }
        return (0..<n).map { a[$0][n] / a[$0][$0] }
    }
}
