extension FinderPatternGate {
    /// Past the centre run's end on one side (`step`, from row `from`, the run `centreRun` pixels beyond it), a finder
    /// pattern's outer ring too faint for the threshold: glare across it. Its light ring, then within the next module
    /// and a half a dip below that ring by a quarter of the ring's contrast to the centre at least, then something
    /// lighter than the dip again (glare or the quiet zone). Print's edge has no dip: the paper past it is flat.
    static func hasFaintRing(
        _ pixels: UnsafeBufferPointer<UInt8>, width: Int, x: Int, from y: Int, step: Int, centreRun: Int, module: Int,
        darkCentre: Bool, within rows: Range<Int>
    ) -> Bool {
        // Light as high, whatever the polarity.
        func value(_ row: Int) -> Int {
            let pixel = Int(pixels[row * width + x])
            return darkCentre ? pixel : 255 - pixel
        }
        let edge = y + step * (centreRun + 1)
        let far = edge + step * (module * 7 / 2)
        guard rows.contains(edge), rows.contains(far) else { return false }
        var centre = 0
        for i in 0...centreRun { centre += value(y + step * i) }
        centre /= centreRun + 1
        var ring = 0
        for i in 0..<module { ring += value(edge + step * i) }
        ring /= module
        var (dip, at) = (Int.max, module / 2)
        for i in (module / 2)...(module * 5 / 2) where value(edge + step * i) < dip {
            (dip, at) = (value(edge + step * i), i)
        }
        var beyond = 0
        for i in at...(module * 7 / 2) { beyond = max(beyond, value(edge + step * i)) }
        let wanted = max(minimumContrast, (ring - centre) / 4)
        return ring - dip >= wanted && beyond - dip >= wanted
    }
}
