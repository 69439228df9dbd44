extension Homography {
    /// The homography taking each of four `source` points to the matching `destination` point, or nil when three
    /// of them are collinear.
    public init?(mapping source: [SIMD2<Double>], to destination: [SIMD2<Double>]) {
        precondition(source.count == 4 && destination.count == 4, "a homography is fixed by four point pairs")
        // Eight equations in h0...h7 (h8 = 1): x' (h6 x + h7 y + 1) = h0 x + h1 y + h2, same for y'.
        var system = [[Double]]()
        for (from, to) in zip(source, destination) {
            system.append([from.x, from.y, 1, 0, 0, 0, -to.x * from.x, -to.x * from.y, to.x])
            system.append([0, 0, 0, from.x, from.y, 1, -to.y * from.x, -to.y * from.y, to.y])
        }
        guard let solution = Self.solve(&system) else { return nil }
        self.init(matrix: solution + [1])
    }

    /// Gaussian elimination with partial pivoting on an augmented n×(n+1) system.
    private static func solve(_ rows: inout [[Double]]) -> [Double]? {
        let count = rows.count
        for pivot in 0..<count {
            let best = (pivot..<count).max { abs(rows[$0][pivot]) < abs(rows[$1][pivot]) }!
            guard abs(rows[best][pivot]) > 1e-12 else { return nil }
            rows.swapAt(pivot, best)
            for row in (pivot + 1)..<count {
                let factor = rows[row][pivot] / rows[pivot][pivot]
                guard factor != 0 else { continue }
                for column in pivot...count { rows[row][column] -= factor * rows[pivot][column] }
            }
        }
        var solution = [Double](repeating: 0, count: count)
        for row in stride(from: count - 1, through: 0, by: -1) {
            var sum = rows[row][count]
            for column in (row + 1)..<count { sum -= rows[row][column] * solution[column] }
            solution[row] = sum / rows[row][row]
        }
        return solution
    }
}
