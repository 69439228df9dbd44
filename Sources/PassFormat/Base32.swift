/// RFC 4648 base32 without padding. Its alphabet (A-Z, 2-7) lies inside the QR alphanumeric set, so a
/// token in base32 costs 5.5 bits a character in a QR code instead of 8.
public enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)
    static let reverse: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (i, c) in alphabet.enumerated() {
            table[Int(c)] = Int8(i)
            table[Int(c) | 0x20] = Int8(i)  // lower case too
        }
        return table
    }()

    /// Whether `byte` is a character of the alphabet (either case).
    public static func isAlphabet(_ byte: UInt8) -> Bool { reverse[Int(byte)] >= 0 }

    public static func encode(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count * 8 + 4) / 5)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                out.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { out.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes base32 text (either case). Returns nil on a character outside the alphabet or on
    /// non-zero trailing bits, so every byte string has exactly one accepted spelling.
    public static func decode<S: Sequence>(_ text: S) -> [UInt8]? where S.Element == UInt8 {
        var out = [UInt8]()
        var buffer: UInt32 = 0
        var bits = 0
        for c in text {
            let v = reverse[Int(c)]
            if v < 0 { return nil }
            buffer = (buffer << 5) | UInt32(v)
            bits += 5
            if bits >= 8 {
                out.append(UInt8((buffer >> UInt32(bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        if bits >= 5 || (buffer & ((1 << UInt32(bits)) - 1)) != 0 { return nil }
        return out
    }
}
