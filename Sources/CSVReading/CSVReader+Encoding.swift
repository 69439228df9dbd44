extension CSVReader {
    /// Refuses bytes that are not UTF-8 text before they are split into fields, naming the first bad line:
    /// a NUL byte (a field would be cut short by C code and SQLite), bytes that are not UTF-8 (a roster saved
    /// as Latin-1 or Windows-1252 would be stored with replacement characters), or UTF-16 text.
    static func checkText(_ bytes: [UInt8]) throws(CSVLineError) {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            throw CSVLineError(
                line: 1,
                problem: "the file is UTF-16 text: save it as UTF-8 (in a spreadsheet: "
                    + "CSV UTF-8) and import it again")
        }
        var line = 1
        var lineBytes: [UInt8] = []
        func checkLine() throws(CSVLineError) {
            if let column = lineBytes.firstIndex(of: 0) {
                throw CSVLineError(
                    line: line,
                    problem: "a NUL byte (0x00) at byte \(column + 1) of the line: "
                        + "this is not plain text; export the roster again as CSV (UTF-8)")
            }
            guard let bad = firstInvalidUTF8(lineBytes) else { return }
            let byte = String(lineBytes[bad], radix: 16, uppercase: true)
            throw CSVLineError(
                line: line,
                problem: "byte 0x\(byte) at byte \(bad + 1) of the line is not "
                    + "UTF-8 (the file may be Latin-1 or Windows-1252): save the file as UTF-8 (in a spreadsheet: CSV "
                    + "UTF-8) and import it again")
        }
        for (i, byte) in bytes.enumerated() {
            if endsLine(bytes, at: i) {
                try checkLine()
                lineBytes.removeAll(keepingCapacity: true)
                line += 1
            } else if byte != UInt8(ascii: "\r") {
                lineBytes.append(byte)
            }
        }
        try checkLine()
    }

    /// The offset of the first byte of `bytes` that does not start (or continue) a valid UTF-8 sequence, or nil
    /// when all of it is UTF-8.
    private static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return min(offset, bytes.count - 1)
            }
        }
    }
}
