import Foundation

/// A plane-to-plane projective map (a 3×3 matrix up to scale): perspective, tilt, rotation, scale and placement
/// in one value.
///
/// A point `(x, y)` maps to `(X / W, Y / W)` where `(X, Y, W) = M · (x, y, 1)`.
public struct Homography: Sendable, Equatable {
    /// The matrix in row-major order.
    public var matrix: [Double]

    public init(matrix: [Double]) {
        precondition(matrix.count == 9, "a homography is a 3×3 matrix")
        self.matrix = matrix
    }

    public static let identity = Homography(matrix: [1, 0, 0, 0, 1, 0, 0, 0, 1])

    public static func translation(x: Double, y: Double) -> Homography {
        Homography(matrix: [1, 0, x, 0, 1, y, 0, 0, 1])
    }

    public static func scaling(x: Double, y: Double) -> Homography {
        Homography(matrix: [x, 0, 0, 0, y, 0, 0, 0, 1])
    }

    /// Rotation by `angle` radians about the origin (clockwise on screen, where y points down).
    public static func rotation(_ angle: Double) -> Homography {
        let c = cos(angle)
        let s = sin(angle)
        return Homography(matrix: [c, -s, 0, s, c, 0, 0, 0, 1])
    }

    /// The image of `point`; points on the horizon (W = 0) map to infinity.
    public func map(_ point: SIMD2<Double>) -> SIMD2<Double> {
        let m = matrix
        let w = m[6] * point.x + m[7] * point.y + m[8]
        return SIMD2(
            (m[0] * point.x + m[1] * point.y + m[2]) / w,
            (m[3] * point.x + m[4] * point.y + m[5]) / w
        )
    }

    /// `lhs` after `rhs`: `(lhs * rhs).map(p) == lhs.map(rhs.map(p))`.
    public static func * (lhs: Homography, rhs: Homography) -> Homography {
        let a = lhs.matrix
        let b = rhs.matrix
        var product = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                product[row * 3 + column] =
                    a[row * 3] * b[column] + a[row * 3 + 1] * b[3 + column] + a[row * 3 + 2] * b[6 + column]
            }
        }
        return Homography(matrix: product)
    }

    /// The inverse map (the adjugate; a homography is only defined up to scale).
    public var inverse: Homography {
        let m = matrix
        let adjugate = [
            m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        let determinant = m[0] * adjugate[0] + m[1] * adjugate[3] + m[2] * adjugate[6]
        return Homography(matrix: adjugate.map { $0 / determinant })
    }

    /// How many destination pixels one source pixel spans near `point` (the square root of the local area ratio).
    func localScale(at point: SIMD2<Double>) -> Double {
        let origin = map(point)
        let alongX = map(point + SIMD2(1, 0)) - origin
        let alongY = map(point + SIMD2(0, 1)) - origin
        return abs(alongX.x * alongY.y - alongX.y * alongY.x).squareRoot()
    }
}
