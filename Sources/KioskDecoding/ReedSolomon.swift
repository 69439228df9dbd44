/// Reed–Solomon decoding of one QR block with errors and erasures (the generator's roots α⁰ to α^(n−k−1), ISO/IEC
/// 18004 §7.5.2): a codeword whose place is known to be doubtful (an erasure) costs one check codeword to mend, one
/// whose place is not known costs two. The engines decode with errors only; a grid read module by module knows
/// which codewords it read from greys near the threshold.
enum ReedSolomon {
    /// `block` (data then check codewords, the first one the highest power) mended, with the codewords at
    /// `erasures` (indices into `block`) taken as unknown and at most as many other errors as `2 × errors +
    /// erasures.count + spare ≤ checkCount` allows; nil when it cannot be mended within that (the `spare` check
    /// codewords left over make a word too damaged to mend unlikely to be taken for another one).
    /// `syndromes` are the block's (`syndromes(of:checkCount:)`), when already computed.
    static func corrected(
        _ block: [UInt8], checkCount: Int, erasures: [Int] = [], spare: Int = 0, syndromes known: [UInt8]? = nil
    ) -> [UInt8]? {
        let n = block.count
        guard checkCount > 0, checkCount < n, erasures.count + spare <= checkCount,
            erasures.allSatisfy({ (0..<n).contains($0) })
        else { return nil }
        let syndromes = known ?? Self.syndromes(of: block, checkCount: checkCount)
        if syndromes.allSatisfy({ $0 == 0 }) { return block }
        // A codeword's place i in the block is the power n − 1 − i; its locator X = α^(n−1−i).
        func locator(_ index: Int) -> UInt8 { GaloisField.power(n - 1 - index) }
        // Erasure locator Γ(x) = Π (1 + X x), then Berlekamp–Massey started from it (Blahut's errors-and-erasures
        // form): Λ(x) ends as the product of Γ and the errors' locator.
        var lambda: [UInt8] = [1]
        for index in Set(erasures) { lambda = multiply(lambda, [1, locator(index)]) }
        let erased = lambda.count - 1
        var previous = lambda
        var length = erased
        for r in stride(from: erased + 1, through: checkCount, by: 1) {
            var discrepancy: UInt8 = 0
            for j in 0...min(length, lambda.count - 1) where r - 1 - j >= 0 {
                discrepancy ^= GaloisField.times(lambda[j], syndromes[r - 1 - j])
            }
            let shifted = [0] + previous
            if discrepancy == 0 {
                previous = shifted
            } else if 2 * length <= r - 1 + erased {
                let next = add(lambda, scale(shifted, by: discrepancy))
                previous = scale(lambda, by: GaloisField.over(1, discrepancy))
                length = r + erased - length
                lambda = next
            } else {
                lambda = add(lambda, scale(shifted, by: discrepancy))
                previous = shifted
            }
        }
        while lambda.count > 1, lambda.last == 0 { lambda.removeLast() }
        let degree = lambda.count - 1
        let errors = degree - erased
        guard degree == length, errors >= 0, 2 * errors + erased + spare <= checkCount else { return nil }
        // Chien search: the places whose X⁻¹ is a root of Λ; all `degree` of them must be in the block.
        var places: [Int] = []
        for index in 0..<n where GaloisField.evaluate(lambda, at: GaloisField.power(-(n - 1 - index))) == 0 {
            places.append(index)
        }
        guard places.count == degree else { return nil }
        // Forney: Ω(x) = S(x) Λ(x) mod x^checkCount; the value at X is X Ω(X⁻¹) / Λ'(X⁻¹) (first root α⁰).
        let omega = Array(multiply(syndromes, lambda).prefix(checkCount))
        var derivative = [UInt8](repeating: 0, count: max(1, lambda.count - 1))
        for power in stride(from: 1, to: lambda.count, by: 2) { derivative[power - 1] = lambda[power] }
        var mended = block
        for index in places {
            let x = locator(index)
            let inverse = GaloisField.over(1, x)
            let denominator = GaloisField.evaluate(derivative, at: inverse)
            guard denominator != 0 else { return nil }
            let value = GaloisField.times(x, GaloisField.over(GaloisField.evaluate(omega, at: inverse), denominator))
            mended[index] ^= value
        }
        guard Self.syndromes(of: mended, checkCount: checkCount).allSatisfy({ $0 == 0 }) else { return nil }
        return mended
    }

    /// S_i = r(αⁱ) for i in 0..<checkCount.
    static func syndromes(of block: [UInt8], checkCount: Int) -> [UInt8] {
        (0..<checkCount).map { i in
            let x = GaloisField.power(i)
            var value: UInt8 = 0
            for codeword in block { value = GaloisField.times(value, x) ^ codeword }
            return value
        }
    }

    /// The check codewords of `data` (for tests and for codes drawn here): the remainder of data × x^checkCount by
    /// the generator Π (x + αⁱ).
    static func checkCodewords(of data: [UInt8], checkCount: Int) -> [UInt8] {
        var generator: [UInt8] = [1]  // highest power first
        for i in 0..<checkCount {
            var next = [UInt8](repeating: 0, count: generator.count + 1)
            for (j, coefficient) in generator.enumerated() {
                next[j] ^= coefficient
                next[j + 1] ^= GaloisField.times(coefficient, GaloisField.power(i))
            }
            generator = next
        }
        var remainder = [UInt8](repeating: 0, count: checkCount)
        for codeword in data {
            let factor = codeword ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            for j in 0..<checkCount { remainder[j] ^= GaloisField.times(generator[j + 1], factor) }
        }
        return remainder
    }

    private static func multiply(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var product = [UInt8](repeating: 0, count: a.count + b.count - 1)
        for (i, x) in a.enumerated() where x != 0 {
            for (j, y) in b.enumerated() { product[i + j] ^= GaloisField.times(x, y) }
        }
        return product
    }

    private static func add(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var sum = [UInt8](repeating: 0, count: max(a.count, b.count))
        for (i, x) in a.enumerated() { sum[i] ^= x }
        for (i, y) in b.enumerated() { sum[i] ^= y }
        return sum
    }

    private static func scale(_ a: [UInt8], by factor: UInt8) -> [UInt8] {
        a.map { GaloisField.times($0, factor) }
    }
}
