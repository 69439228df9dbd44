/// Where a QR code of one version keeps what (ISO/IEC 18004 §6.3 to §7.9): its function patterns, the two copies
/// of its format information, its version information, its blocks of codewords and the order their bits are
/// placed in. Modules are numbered row by row (`row × dimension + column`).
struct QRSymbolLayout {
    /// The four error correction levels, in the order of the standard's tables.
    enum Level: Int, CaseIterable {
        case low, medium, quartile, high

        /// The two bits the format information gives the level by.
        var formatBits: Int { [1, 0, 3, 2][rawValue] }
    }

    let version: Int
    let dimension: Int
    /// Whether each module belongs to a function pattern or the format or version information.
    let isFunction: [Bool]
    /// The modules that hold the codewords' bits, in the order the bits are placed (the first codeword's most
    /// significant bit first), then the remainder bits.
    let dataModules: [Int]

    /// The layouts of versions 1 to 40, made once: a grid's code is mended on every frame that reaches the last
    /// passes, and a layout is the same for every code of its version.
    static let all: [QRSymbolLayout] = (1...40).compactMap { QRSymbolLayout(version: $0) }

    /// The layout of `dimension` modules a side (17 + 4 × version), from `all`; nil for any other.
    static func of(dimension: Int) -> QRSymbolLayout? {
        guard dimension >= 21, (dimension - 17) % 4 == 0, dimension <= 177 else { return nil }
        return all[(dimension - 17) / 4 - 1]
    }

    /// The layout of `version` (1 to 40).
    init?(version: Int) {
        guard (1...40).contains(version) else { return nil }
        self.version = version
        let dimension = 17 + 4 * version
        self.dimension = dimension
        var isFunction = [Bool](repeating: false, count: dimension * dimension)
        func mark(_ rows: ClosedRange<Int>, _ columns: ClosedRange<Int>) {
            for row in rows where (0..<dimension).contains(row) {
                for column in columns where (0..<dimension).contains(column) {
                    isFunction[row * dimension + column] = true
                }
            }
        }
        let last = dimension - 1
        // Finder patterns with their separators and the format information beside them (the dark module too).
        mark(0...8, 0...8)
        mark(0...8, (last - 7)...last)
        mark((last - 7)...last, 0...8)
        mark(6...6, 0...last)
        mark(0...last, 6...6)
        for (row, column) in Self.alignmentCentres(version: version) {
            mark((row - 2)...(row + 2), (column - 2)...(column + 2))
        }
        if version >= 7 {
            mark(0...5, (last - 10)...(last - 8))
            mark((last - 10)...(last - 8), 0...5)
        }
        self.isFunction = isFunction
        // Two columns at a time from the right, up then down, stepping over the vertical timing pattern.
        var order: [Int] = []
        var right = last
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for step in 0..<dimension {
                let row = upward ? last - step : step
                for column in [right, right - 1] where !isFunction[row * dimension + column] {
                    order.append(row * dimension + column)
                }
            }
            right -= 2
        }
        dataModules = order
    }

    /// The centres of the alignment patterns, (row, column), those under the finder patterns left out.
    static func alignmentCentres(version: Int) -> [(Int, Int)] {
        guard version >= 2 else { return [] }
        let count = version / 7 + 2
        let dimension = 17 + 4 * version
        let step = version == 32 ? 26 : (version * 4 + count * 2 + 1) / (count * 2 - 2) * 2
        var positions = [6]
        for i in 0..<(count - 1) { positions.insert(dimension - 7 - i * step, at: 1) }
        let (first, last) = (positions[0], positions[positions.count - 1])
        return positions.flatMap { row in positions.map { (row, $0) } }.filter { row, column in
            !((row == first && column == first) || (row == first && column == last) || (row == last && column == first))
        }
    }

    /// The modules of the two copies of the format information, bit 0 (least significant) first.
    var formatModules: (first: [Int], second: [Int]) {
        let d = dimension
        var first = (0...5).map { $0 * d + 8 }
        first += [7 * d + 8, 8 * d + 8, 8 * d + 7]
        first += (9...14).map { 8 * d + 14 - $0 }
        var second = (0...7).map { 8 * d + d - 1 - $0 }
        second += (8...14).map { (d - 15 + $0) * d + 8 }
        return (first, second)
    }

    /// The 32 valid words of format information: each level with each mask (`formatWord`).
    static let formatWords: [(level: Level, mask: Int, word: Int)] = Level.allCases.flatMap { level in
        (0..<8).map { (level, $0, formatWord(level, mask: $0)) }
    }

    /// The 15 bits of format information for `level` and `mask` (BCH (15, 5), then XORed with 101010000010010).
    static func formatWord(_ level: Level, mask: Int) -> Int {
        let data = level.formatBits << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        return (data << 10 | remainder) ^ 0x5412
    }

    /// The 18 bits of version information (versions 7 and up: BCH (18, 6)).
    var versionWord: Int {
        var remainder = version
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        return version << 12 | remainder
    }

    /// Whether data mask `mask` (0 to 7) inverts the module at `row`, `column`.
    static func isMasked(_ mask: Int, _ row: Int, _ column: Int) -> Bool {
        switch mask {
        case 0: (row + column) % 2 == 0
        case 1: row % 2 == 0
        case 2: column % 3 == 0
        case 3: (row + column) % 3 == 0
        case 4: (row / 2 + column / 3) % 2 == 0
        case 5: row * column % 2 + row * column % 3 == 0
        case 6: (row * column % 2 + row * column % 3) % 2 == 0
        default: ((row + column) % 2 + row * column % 3) % 2 == 0
        }
    }

    /// Codewords in the code (data and check), the remainder bits left out.
    var codewordCount: Int { dataModules.count / 8 }

    /// Check codewords per block, and blocks, by level then version (ISO/IEC 18004 Table 9).
    private static let checkCodewordsPerBlock: [[Int]] = [
        [
            7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30,
            30,
            30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
        [
            10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28,
            28,
            28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
        ],
        [
            13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30, 28, 30,
            30,
            30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
        [
            17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30, 30, 30,
            30,
            30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
    ]
    private static let blockCounts: [[Int]] = [
        [
            1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18,
            19, 19, 20, 21, 22, 24, 25,
        ],
        [
            1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29,
            31,
            33, 35, 37, 38, 40, 43, 45, 47, 49,
        ],
        [
            1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38, 40,
            43, 45, 48, 51, 53, 56, 59, 62, 65, 68,
        ],
        [
            1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42, 45,
            48,
            51, 54, 57, 60, 63, 66, 70, 74, 77, 81,
        ],
    ]

    /// Check codewords per block at `level`.
    func checkCount(_ level: Level) -> Int { Self.checkCodewordsPerBlock[level.rawValue][version - 1] }

    /// Check codewords the smallest codes keep for detecting a miscorrection (ISO/IEC 18004 Table 9, p): the
    /// engines spend them on errors all the same, so errors alone do too, but erasures never do.
    func protection(_ level: Level) -> Int {
        switch (version, level) {
        case (1, .low): 3
        case (1, .medium), (2, .low): 2
        case (1, _), (3, .low): 1
        default: 0
        }
    }

    /// Each block's codewords as indices into the code's codeword sequence (data, then check codewords), in
    /// block order: the data codewords are interleaved block by block (the longer blocks last), then the check
    /// codewords.
    func blocks(_ level: Level) -> [[Int]] {
        let count = Self.blockCounts[level.rawValue][version - 1]
        let check = checkCount(level)
        let shortLength = codewordCount / count
        let shortBlocks = count - codewordCount % count
        let dataLengths = (0..<count).map { shortLength - check + ($0 < shortBlocks ? 0 : 1) }
        var blocks = [[Int]](repeating: [], count: count)
        var next = 0
        for i in 0..<(dataLengths.max() ?? 0) {
            for block in 0..<count where i < dataLengths[block] {
                blocks[block].append(next)
                next += 1
            }
        }
        for _ in 0..<check {
            for block in 0..<count {
                blocks[block].append(next)
                next += 1
            }
        }
        return blocks
    }

    /// The modules every code of this version has dark in its function patterns (finder, timing and alignment
    /// patterns and the dark module): true dark, false light, for the modules of `isFunction` other than the
    /// format and version information, which `drawn` sets.
    func drawn(format: Int, codewords: [UInt8], mask: Int) -> [Bool] {
        let last = dimension - 1
        var dark = [Bool](repeating: false, count: dimension * dimension)
        for (top, left) in [(0, 0), (0, last - 6), (last - 6, 0)] {
            for r in 0..<7 {
                for c in 0..<7 {
                    let ring = max(abs(r - 3), abs(c - 3))
                    dark[(top + r) * dimension + left + c] = ring != 2
                }
            }
        }
        for i in 8..<(last - 7) {
            dark[6 * dimension + i] = i % 2 == 0
            dark[i * dimension + 6] = i % 2 == 0
        }
        for (row, column) in Self.alignmentCentres(version: version) {
            for r in -2...2 {
                for c in -2...2 { dark[(row + r) * dimension + column + c] = max(abs(r), abs(c)) != 1 }
            }
        }
        let (first, second) = formatModules
        for bit in 0..<15 {
            dark[first[bit]] = (format >> bit) & 1 == 1
            dark[second[bit]] = (format >> bit) & 1 == 1
        }
        dark[(last - 7) * dimension + 8] = true
        if version >= 7 {
            let word = versionWord
            for bit in 0..<18 where (word >> bit) & 1 == 1 {
                dark[(bit / 3) * dimension + last - 10 + bit % 3] = true
                dark[(last - 10 + bit % 3) * dimension + bit / 3] = true
            }
        }
        for (i, module) in dataModules.enumerated() {
            let bit = i < codewords.count * 8 ? (codewords[i / 8] >> (7 - i % 8)) & 1 == 1 : false
            dark[module] = bit != Self.isMasked(mask, module / dimension, module % dimension)
        }
        return dark
    }
}
