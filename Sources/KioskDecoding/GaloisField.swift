/// The field of 256 elements QR codes' error correction works in (ISO/IEC 18004 §7.5.2: the primitive polynomial
/// x⁸ + x⁴ + x³ + x² + 1, α = 2): addition is exclusive or, products go through the tables of logarithms.
enum GaloisField {
    /// αⁱ for i in 0..<510 (twice round, so a sum of two logarithms needs no modulo).
    static let exponents: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 510)
        var value = 1
        for power in 0..<255 {
            table[power] = UInt8(value)
            table[power + 255] = UInt8(value)
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        return table
    }()

    /// log_α of each element but 0.
    static let logarithms: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for power in 0..<255 { table[Int(exponents[power])] = power }
        return table
    }()

    static func times(_ a: UInt8, _ b: UInt8) -> UInt8 {
        guard a != 0, b != 0 else { return 0 }
        return exponents[logarithms[Int(a)] + logarithms[Int(b)]]
    }

    /// a / b, b not 0.
    static func over(_ a: UInt8, _ b: UInt8) -> UInt8 {
        guard a != 0 else { return 0 }
        return exponents[logarithms[Int(a)] + 255 - logarithms[Int(b)]]
    }

    /// αᵖ for any integer p.
    static func power(_ p: Int) -> UInt8 {
        exponents[((p % 255) + 255) % 255]
    }

    /// The polynomial (coefficients from x⁰ up) at `x`.
    static func evaluate(_ polynomial: [UInt8], at x: UInt8) -> UInt8 {
        var value: UInt8 = 0
        for coefficient in polynomial.reversed() { value = times(value, x) ^ coefficient }
        return value
    }
}
