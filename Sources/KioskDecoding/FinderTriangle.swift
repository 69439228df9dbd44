/// Where a code's three finder patterns are, or would be: `corner` at the right angle, `p` and `q` at the ends of its
/// two sides, modules of about `module` pixels (as the gate measures them, across a row and a column).
struct FinderTriangle {
    var corner: SIMD2<Double>
    var p: SIMD2<Double>
    var q: SIMD2<Double>
    var module: Double
}
