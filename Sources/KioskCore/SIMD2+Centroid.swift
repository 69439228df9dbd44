extension Collection where Element == SIMD2<Double> {
    /// The mean of the points (a code's centre from its corners); nil when there are none.
    public var centroid: SIMD2<Double>? {
        isEmpty ? nil : reduce(.zero, +) / Double(count)
    }
}
