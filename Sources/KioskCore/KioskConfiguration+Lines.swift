extension KioskConfiguration {
    /// The lines of a configuration file, checked as text.
    ///
    /// A line ends at LF, at CRLF (a file saved on Windows) or at a lone CR (classic Mac editors), so every
    /// editor's file has the line numbers its editor shows. A UTF-8 byte order mark at the start is dropped
    /// (Notepad writes one). A line that is not valid UTF-8, or that holds a NUL byte (which C would read as
    /// the end of the value), is refused with its number: nothing is silently cut or replaced.
    public static func lines(of bytes: [UInt8], file: String) throws(ConfigurationError) -> [String] {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var result: [String] = []
        var i = start
        func finishLine(at end: Int) throws(ConfigurationError) {
            let lineNumber = result.count + 1
            let line = bytes[start..<end]
            if let nul = line.firstIndex(of: 0) {
                throw ConfigurationError(
                    file: file, line: lineNumber,
                    message: "holds a NUL byte (column \(nul - start + 1)), which would cut the value short: "
                        + "the file is damaged or not plain text; retype the line in a text editor and save the file as UTF-8"
                )
            }
            guard let text = String(validating: line, as: UTF8.self) else {
                let bad = Self.firstInvalidUTF8(line) ?? start
                throw ConfigurationError(
                    file: file, line: lineNumber,
                    message: "is not valid UTF-8 (byte 0x\(String(bytes[bad], radix: 16, uppercase: true)) at column "
                        + "\(bad - start + 1)): save the file as UTF-8 (for a Latin-1 file: iconv -f latin1 -t utf-8)")
            }
            result.append(text)
        }
        while i < bytes.count {
            switch bytes[i] {
            case 0x0A:
                try finishLine(at: i)
                i += 1
                start = i
            case 0x0D:
                try finishLine(at: i)
                i += (i + 1 < bytes.count && bytes[i + 1] == 0x0A) ? 2 : 1
                start = i
            default:
                i += 1
            }
        }
        if start < bytes.count { try finishLine(at: bytes.count) }
        return result
    }

    /// The index of the first byte where `bytes` stops being valid UTF-8.
    static func firstInvalidUTF8(_ bytes: ArraySlice<UInt8>) -> Int? {
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            let length =
                b < 0x80 ? 1 : b >= 0xC2 && b <= 0xDF ? 2 : b >= 0xE0 && b <= 0xEF ? 3 : b >= 0xF0 && b <= 0xF4 ? 4 : 0
            guard length > 0, i + length <= bytes.endIndex,
                String(validating: bytes[i..<(i + length)], as: UTF8.self) != nil
            else { return i }
            i += length
        }
        return nil
    }
}
