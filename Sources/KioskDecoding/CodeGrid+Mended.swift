/// A code mended by its own error correction, from greys read module by module.
///
/// The engines threshold a code and correct what errors its check codewords allow, not knowing which codewords
/// are doubtful. Here each module's grey is known, and how far it lies from its threshold: the codewords read
/// from greys nearest their thresholds (blur, a bright spot, a crease) are given to Reed–Solomon as erasures,
/// which cost one check codeword each instead of two, so a block with up to twice as many damaged codewords is
/// mended. The code is then drawn again whole, every module as its mended codeword has it, for the engines to
/// read its text.
extension CodeGrid {
    /// Check codewords an erasure decoding leaves unspent, so that a block damaged beyond mending is not taken for
    /// another codeword: a word beyond mending passes a try of e errors with about C(n, e) / 256^(e + spare), and a
    /// block gets up to 14 tries on each of 4 thresholds; with 3 spare that is about one grid in a million (with 2,
    /// one in five thousand, which would be a wrong payload on someone's damaged pass).
    static let spareWithErasures = 3

    /// The code's modules (row by row, true dark) mended by its error correction from `greys` against each of
    /// `thresholds` in turn (`thresholds(of:)`), or nil when the format information is not found within three
    /// bits of a valid one or a block cannot be mended.
    func mended(from greys: [Double], thresholds: [[Double]]) -> [Bool]? {
        guard let layout = QRSymbolLayout.of(dimension: dimension), greys.count == dimension * dimension else {
            return nil
        }
        for threshold in thresholds where threshold.count == greys.count {
            if let modules = Self.mended(darkness(greys, threshold), layout) { return modules }
        }
        return nil
    }

    /// How far (in bits) the format information read from `greys` against the nearest of `thresholds` lies from
    /// a valid word, at best over its two copies; 15 when there is no layout of this dimension.
    func formatDistance(_ greys: [Double], thresholds: [[Double]]) -> Int {
        guard let layout = QRSymbolLayout.of(dimension: dimension), greys.count == dimension * dimension else {
            return 15
        }
        // Only the format modules' darkness, not every module's (`mended` has already read them all).
        return thresholds.filter { $0.count == greys.count }.map { threshold in
            Self.format({ darkOnLight ? threshold[$0] - greys[$0] : greys[$0] - threshold[$0] }, layout)?.distance ?? 15
        }.min() ?? 15
    }

    /// How dark each module is in the code's colours: above 0 dark, and the farther the surer.
    private func darkness(_ greys: [Double], _ threshold: [Double]) -> [Double] {
        greys.indices.map { darkOnLight ? threshold[$0] - greys[$0] : greys[$0] - threshold[$0] }
    }

    /// The valid format word nearest either copy read from `darkness` (of a module, by its index), within three bits.
    private static func format(
        _ darkness: (Int) -> Double, _ layout: QRSymbolLayout
    ) -> (distance: Int, level: QRSymbolLayout.Level, mask: Int, word: Int)? {
        let (first, second) = layout.formatModules
        func word(_ modules: [Int]) -> Int {
            modules.enumerated().reduce(0) { $0 | (darkness($1.element) > 0 ? 1 << $1.offset : 0) }
        }
        let read = [word(first), word(second)]
        var format: (distance: Int, level: QRSymbolLayout.Level, mask: Int, word: Int)?
        for valid in QRSymbolLayout.formatWords {
            let distance = read.map { ($0 ^ valid.word).nonzeroBitCount }.min() ?? 15
            if distance < format?.distance ?? 4 { format = (distance, valid.level, valid.mask, valid.word) }
        }
        return format
    }

    private static func mended(_ darkness: [Double], _ layout: QRSymbolLayout) -> [Bool]? {
        let dimension = layout.dimension
        guard let (_, level, mask, formatWord) = format({ darkness[$0] }, layout) else { return nil }
        let count = layout.codewordCount
        var codewords = [UInt8](repeating: 0, count: count)
        var sureness = [Double](repeating: .infinity, count: count)
        for bit in 0..<(count * 8) {
            let module = layout.dataModules[bit]
            let dark = darkness[module] > 0
            if dark != QRSymbolLayout.isMasked(mask, module / dimension, module % dimension) {
                codewords[bit / 8] |= 1 << (7 - bit % 8)
            }
            sureness[bit / 8] = min(sureness[bit / 8], abs(darkness[module]))
        }
        var mended = codewords
        for block in layout.blocks(level) {
            guard
                let fixed = mend(
                    block.map { codewords[$0] }, sureness: block.map { sureness[$0] },
                    checkCount: layout.checkCount(level), protection: layout.protection(level))
            else { return nil }
            for (i, index) in block.enumerated() { mended[index] = fixed[i] }
        }
        return layout.drawn(format: formatWord, codewords: mended, mask: mask)
    }

    /// One block mended: with errors only, as the engines do, then with the least sure codewords erased, as many
    /// as the check codewords allow with `spareWithErasures` left over and fewer in turn (two at a time: each
    /// erasure given back leaves room for half an error).
    static func mend(_ block: [UInt8], sureness: [Double], checkCount: Int, protection: Int) -> [UInt8]? {
        let syndromes = ReedSolomon.syndromes(of: block, checkCount: checkCount)
        if let fixed = ReedSolomon.corrected(block, checkCount: checkCount, syndromes: syndromes) {
            return fixed
        }
        let doubtful = sureness.indices.sorted { sureness[$0] < sureness[$1] }
        let spare = protection + spareWithErasures
        for erased in stride(from: checkCount - spare, through: 1, by: -2) {
            if let fixed = ReedSolomon.corrected(
                block, checkCount: checkCount, erasures: Array(doubtful.prefix(erased)), spare: spare,
                syndromes: syndromes)
            {
                return fixed
            }
        }
        return nil
    }
}
