import GrayImage
import KioskCore
import QREncoding
import Testing

@testable import KioskDecoding

/// A code's own error correction, used with what the grid knows about each module: Reed–Solomon with errors and
/// erasures, the layout of codes of every version (checked against libqrencode's), and a code mended from its
/// doubtful codewords where the engines, correcting errors only, read nothing.
@Suite struct ErrorCorrectionTests {
    /// A seeded generator (SplitMix64): the same blocks and damage on every run.
    struct Seeded {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    @Test(arguments: [(19, 7), (16, 28), (43, 26), (118, 30)])
    func reedSolomonMendsAsManyErrorsAndErasuresAsItsCheckCodewordsAllow(data: Int, checkCount: Int) {
        var random = Seeded(state: UInt64(data * 100 + checkCount))
        for trial in 0..<40 {
            let message = (0..<data).map { _ in UInt8(random.next(256)) }
            let block = message + ReedSolomon.checkCodewords(of: message, checkCount: checkCount)
            #expect(ReedSolomon.syndromes(of: block, checkCount: checkCount).allSatisfy { $0 == 0 })
            let erased = trial % 2 == 0 ? random.next(checkCount + 1) : 0
            let errors = (checkCount - erased) / 2
            var places = Array(block.indices)
            for i in places.indices.reversed() { places.swapAt(i, random.next(i + 1)) }
            var damaged = block
            for place in places.prefix(erased + errors) { damaged[place] ^= UInt8(1 + random.next(255)) }
            let mended = ReedSolomon.corrected(
                damaged, checkCount: checkCount, erasures: Array(places.prefix(erased)))
            #expect(mended == block, "trial \(trial): \(erased) erasures, \(errors) errors")
            // One error more than the check codewords allow, with two of them left spare: not mended.
            if errors + 1 <= places.count - erased, erased + 2 * (errors + 1) > checkCount {
                var beyond = damaged
                beyond[places[erased + errors]] ^= 0x5A
                let wrong = ReedSolomon.corrected(
                    beyond, checkCount: checkCount, erasures: Array(places.prefix(erased)), spare: 2)
                #expect(wrong == nil, "trial \(trial): mended beyond the check codewords")
            }
        }
    }

    /// A code's modules (true dark) from an image at one pixel per module, without a quiet zone.
    static func modules(_ code: RenderedQRCode) -> [Bool] {
        (0..<(code.moduleCount * code.moduleCount)).map {
            code.image[$0 % code.moduleCount, $0 / code.moduleCount] < 128
        }
    }

    /// The codewords the modules hold under `mask`.
    static func codewords(_ dark: [Bool], _ layout: QRSymbolLayout, mask: Int) -> [UInt8] {
        var codewords = [UInt8](repeating: 0, count: layout.codewordCount)
        for bit in 0..<(layout.codewordCount * 8) {
            let module = layout.dataModules[bit]
            if dark[module] != QRSymbolLayout.isMasked(mask, module / layout.dimension, module % layout.dimension) {
                codewords[bit / 8] |= 1 << (7 - bit % 8)
            }
        }
        return codewords
    }

    static let levels: [(QRErrorCorrection, QRSymbolLayout.Level)] = [
        (.low, .low), (.medium, .medium), (.quartile, .quartile), (.high, .high),
    ]

    @Test(arguments: 1...40)
    func theLayoutOfEveryVersionIsLibqrencodes(version: Int) throws {
        let layout = try #require(QRSymbolLayout(version: version))
        // The decoder's cached layout for the dimension is this version's; the 32 format words are distinct.
        #expect(QRSymbolLayout.of(dimension: layout.dimension)?.version == version)
        #expect(QRSymbolLayout.of(dimension: layout.dimension + 1) == nil)
        #expect(Set(QRSymbolLayout.formatWords.map(\.word)).count == 32)
        // Every module but the function patterns' holds a codeword's bit or one of the 0 to 7 remainder bits.
        #expect(layout.dataModules.count - layout.codewordCount * 8 < 8)
        #expect(Set(layout.dataModules).count == layout.dataModules.count)
        #expect(layout.dataModules.count == layout.isFunction.filter { !$0 }.count)
        for (correction, level) in Self.levels {
            let code = try QRCodeRenderer.render(
                "V\(version)\(level.rawValue)", moduleSize: 1, quietZone: 0, correction: correction,
                minimumVersion: version)
            try #require(code.version == version)
            let dark = Self.modules(code)
            let (first, second) = layout.formatModules
            let format = first.enumerated().reduce(0) { $0 | (dark[$1.element] ? 1 << $1.offset : 0) }
            #expect(format == second.enumerated().reduce(0) { $0 | (dark[$1.element] ? 1 << $1.offset : 0) })
            let mask = try #require((0..<8).first { QRSymbolLayout.formatWord(level, mask: $0) == format })
            let codewords = Self.codewords(dark, layout, mask: mask)
            // Drawn again from its codewords, the code is libqrencode's to the module: function patterns, format
            // and version information, the order of the bits and the mask.
            #expect(layout.drawn(format: format, codewords: codewords, mask: mask) == dark, "\(level)")
            // Its blocks are whole Reed–Solomon codewords: the tables of blocks and check codewords are right.
            let blocks = layout.blocks(level)
            #expect(blocks.flatMap { $0 }.sorted() == Array(0..<layout.codewordCount))
            for block in blocks {
                let syndromes = ReedSolomon.syndromes(
                    of: block.map { codewords[$0] }, checkCount: layout.checkCount(level))
                #expect(syndromes.allSatisfy { $0 == 0 }, "\(level)")
            }
        }
    }

    static let text = "MENDED-PASS-0005"
    static let code = try! QRCodeRenderer.render(
        text, moduleSize: 1, quietZone: 0, correction: .quartile, minimumVersion: 5)
    static let layout = QRSymbolLayout(version: 5)!

    /// The code's modules with 14 codewords of its first block (4 blocks of 18 check codewords: 9 errors are what
    /// the engines mend) read the wrong way, each from a grey near the threshold (a smear, a crease): `dark` and
    /// `light` are the greys of the rest.
    static func damagedGreys(dark: Double, light: Double) -> [Double] {
        let modules = modules(code)
        var greys = modules.map { $0 ? dark : light }
        let middle = (dark + light) / 2
        let damaged = layout.blocks(.quartile)[0].prefix(14)
        for codeword in damaged {
            for bit in 0..<8 {
                let module = layout.dataModules[codeword * 8 + bit]
                greys[module] = modules[module] ? middle + 6 : middle - 6
            }
        }
        return greys
    }

    @Test func aBlockTheEnginesCannotMendIsMendedFromItsDoubtfulCodewords() throws {
        let dark = Self.modules(Self.code)
        let greys = Self.damagedGreys(dark: 40, light: 210)
        let mask = try #require(
            (0..<8).first { mask in
                let format = Self.layout.formatModules.first.enumerated().reduce(0) {
                    $0 | (dark[$1.element] ? 1 << $1.offset : 0)
                }
                return QRSymbolLayout.formatWord(.quartile, mask: mask) == format
            })
        // Thresholded, the block has 14 codewords wrong: errors alone do not mend it.
        let read = Self.codewords(greys.map { $0 < 125 }, Self.layout, mask: mask)
        let block = Self.layout.blocks(.quartile)[0]
        #expect(ReedSolomon.corrected(block.map { read[$0] }, checkCount: 18) == nil)
        // The grid knows those 14 are its least sure: erased, they are mended, and the code drawn again is whole.
        let grid = CodeGrid(
            dimension: 37, toFrame: Homography(from: Self.square, to: Self.square)!, darkOnLight: true)
        #expect(grid.mended(from: greys, thresholds: grid.thresholds(of: greys)) == dark)
        // A code of noise is mended into nothing.
        var random = Seeded(state: 5)
        let noise = (0..<(37 * 37)).map { _ in Double(random.next(256)) }
        #expect(grid.mended(from: noise, thresholds: grid.thresholds(of: noise)) == nil)
    }

    static let square: [SIMD2<Double>] = [SIMD2(0, 0), SIMD2(1, 0), SIMD2(0, 1), SIMD2(1, 1)]

    @Test func theDecoderReadsACodeTheEnginesCannotMend() throws {
        // The damaged code at 6 pixels per module on a light wall, a little blurred at module edges.
        let scale = 6
        let greys = Self.damagedGreys(dark: 45, light: 200)
        let side = (37 + 8) * scale
        var frame = GrayFrame(width: side + 200, height: side + 120, fill: 200)
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let (column, row) = ((x - 100) / scale - 4, (y - 60) / scale - 4)
                guard x >= 100, y >= 60, (0..<37).contains(column), (0..<37).contains(row) else { continue }
                frame[x, y] = TestScenes.pixel(greys[row * 37 + column])
            }
        }
        let decoder = KioskDecoder()
        for pass in ["zbar:full", "zxing:full", "zbar:sharpened", "zxing:thresholded"] {
            let settings = try #require(DecoderSettings.Pass(pass))
            #expect(decoder.decode(frame, pass: settings).isEmpty, "\(pass)")
        }
        let read = decoder.decode(frame)
        #expect(read.map(\.payload) == [Array(Self.text.utf8)])
        #expect(read.first?.foundBy.hasSuffix(":resampled") == true)
    }
}
