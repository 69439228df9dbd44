import Foundation

/// Draws used by the scene recipes. Written out here (rather than `Double.random(in:using:)`) so a seed renders
/// the same frame whatever the standard library's sampling algorithm.
extension RandomNumberGenerator {
    /// Uniform in `0..<1`.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// Uniform in `lower..<upper`.
    mutating func uniform(_ lower: Double, _ upper: Double) -> Double {
        lower + (upper - lower) * unit()
    }

    /// Standard normal (Box–Muller).
    mutating func gaussian() -> Double {
        let u1 = max(unit(), 0x1p-53)
        let u2 = unit()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    mutating func coinFlip(probability: Double = 0.5) -> Bool {
        unit() < probability
    }

    /// `+1` or `-1` with equal chance.
    mutating func randomSign() -> Double {
        coinFlip() ? 1 : -1
    }

    /// Uniform in `0..<count`.
    mutating func index(below count: Int) -> Int {
        Int(next() % UInt64(count))
    }
}
