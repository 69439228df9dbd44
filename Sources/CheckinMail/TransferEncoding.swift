import Foundation

/// The two body encodings the writer uses. Neither can produce `=_`, which starts every boundary, so a
/// boundary can never occur inside a part.
enum TransferEncoding {
    /// Quoted-printable (RFC 2045 6.7) of UTF-8 text: lines end in CRLF, no encoded line is longer than 76
    /// characters, trailing spaces and a leading dot are encoded, `=` is always `=3D`.
    static func quotedPrintable(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        let lines = normalized.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            if index > 0 { output += [13, 10] }
            let bytes = Array(line.utf8)
            var current: [UInt8] = []
            for (position, byte) in bytes.enumerated() {
                let isLast = position == bytes.count - 1
                func escaped() -> [UInt8] { [UInt8(ascii: "="), hex[Int(byte >> 4)], hex[Int(byte & 15)]] }
                var token: [UInt8]
                if byte == UInt8(ascii: "=") || byte < 32 && byte != 9 || byte > 126 {
                    token = escaped()
                } else if (byte == 32 || byte == 9) && isLast {
                    token = escaped()
                } else {
                    token = [byte]
                }
                if current.count + token.count > 75 {
                    output += current + [UInt8(ascii: "="), 13, 10]
                    current = []
                }
                if current.isEmpty && byte == UInt8(ascii: ".") { token = escaped() }
                current += token
            }
            output += current
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Base64 in lines of 76 characters ending in CRLF (RFC 2045 6.8).
    static func base64(_ bytes: [UInt8]) -> String {
        let encoded = Array(Data(bytes).base64EncodedString().utf8)
        var lines: [String] = []
        var start = 0
        while start < encoded.count {
            let end = min(start + 76, encoded.count)
            lines.append(String(decoding: encoded[start..<end], as: UTF8.self))
            start = end
        }
        return lines.joined(separator: "\r\n")
    }
}
