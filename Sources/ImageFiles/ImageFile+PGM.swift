import GrayImage

/// Binary PGM (`P5`) in Swift: header fields separated by whitespace, `#` comments to the end of a line,
/// one whitespace byte before the samples; 1 byte per sample for maxval < 256, else 2 bytes big-endian.
/// Any maxval other than 255 is scaled to 0...255. Only the first image of a multi-image file is read.
enum PGMCodec {
    static func decode(_ data: [UInt8], name: String) throws(ImageError) -> GrayFrame {
        var header = PGMHeaderScanner(bytes: data, name: name)
        header.offset = 2
        let width = try header.nextNumber()
        let height = try header.nextNumber()
        let maxValue = try header.nextNumber()
        guard header.offset < data.count, PGMHeaderScanner.isWhitespace(data[header.offset]) else {
            throw ImageError(file: name, reason: .truncated(format: "PGM"))
        }
        header.offset += 1
        guard (1...65535).contains(maxValue) else {
            throw ImageError(
                file: name, reason: .corrupt(format: "PGM", message: "maxval \(maxValue) is not in 1...65535"))
        }
        try ImageFile.checkSize(width: width, height: height, format: .pgm, name: name)

        let count = width * height
        let bytesPerSample = maxValue > 255 ? 2 : 1
        guard data.count - header.offset >= count * bytesPerSample else {
            throw ImageError(file: name, reason: .truncated(format: "PGM"))
        }
        let start = header.offset
        var pixels = [UInt8](repeating: 0, count: count)
        data.withUnsafeBufferPointer { input in
            pixels.withUnsafeMutableBufferPointer { output in
                if maxValue == 255 {
                    for i in 0..<count { output[i] = input[start + i] }
                } else if bytesPerSample == 1 {
                    for i in 0..<count { output[i] = scale(Int(input[start + i]), maxValue) }
                } else {
                    for i in 0..<count {
                        let sample = Int(input[start + 2 * i]) << 8 | Int(input[start + 2 * i + 1])
                        output[i] = scale(sample, maxValue)
                    }
                }
            }
        }
        return GrayFrame(width: width, height: height, pixels: pixels)
    }

    static func encode(_ frame: GrayFrame) -> [UInt8] {
        Array("P5\n\(frame.width) \(frame.height)\n255\n".utf8) + frame.pixels
    }

    /// A sample in 0...maxValue to 0...255, rounded; samples above maxval (invalid) clamp to white.
    @inline(__always)
    private static func scale(_ sample: Int, _ maxValue: Int) -> UInt8 {
        UInt8((min(sample, maxValue) * 255 + maxValue / 2) / maxValue)
    }
}

/// Walks a PNM header: skips whitespace and comments, reads decimal numbers.
struct PGMHeaderScanner {
    let bytes: [UInt8]
    let name: String
    var offset = 0

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C
    }

    mutating func nextNumber() throws(ImageError) -> Int {
        while offset < bytes.count {
            if Self.isWhitespace(bytes[offset]) {
                offset += 1
            } else if bytes[offset] == UInt8(ascii: "#") {
                while offset < bytes.count, bytes[offset] != 0x0A, bytes[offset] != 0x0D { offset += 1 }
            } else {
                break
            }
        }
        guard offset < bytes.count else { throw ImageError(file: name, reason: .truncated(format: "PGM")) }
        var value = 0
        var digits = 0
        while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) {
            value = value * 10 + Int(bytes[offset] - UInt8(ascii: "0"))
            digits += 1
            offset += 1
            guard value <= 1 << 40 else {
                throw ImageError(file: name, reason: .corrupt(format: "PGM", message: "header number too large"))
            }
        }
        guard digits > 0 else {
            throw ImageError(file: name, reason: .corrupt(format: "PGM", message: "header field is not a number"))
        }
        return value
    }
}
