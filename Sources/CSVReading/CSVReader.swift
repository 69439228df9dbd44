/// Splits RFC 4180 CSV text into records of fields: fields separated by commas, records by CRLF, LF or a lone
/// CR (a file from an old Mac), quoted fields (`"a, ""b"""`) may hold commas, doubled quotes and line breaks;
/// text after a closing quote is refused. The one CSV reader of the package: the kiosk's roster (`RosterCSV`)
/// and the server's guest import (`GuestCSV`) both read through it. A leading UTF-8 byte order
/// mark and blank lines are skipped. Each record carries the line number it starts on. The bytes must be UTF-8
/// text without NUL bytes (`checkText`): anything else is refused with its line, never stored altered.
public struct CSVReader {
    public struct Record: Equatable, Sendable {
        /// The line the record starts on.
        public var line: Int
        public var fields: [String]
    }

    public static func records(in text: String) throws(CSVLineError) -> [Record] {
        try records(in: Array(text.utf8))
    }

    public static func records(in bytes: [UInt8]) throws(CSVLineError) -> [Record] {
        try checkText(bytes)
        var bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }

        var records: [Record] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1
        var recordLine = 1
        var i = 0
        var quoted = false  // the current field started with a quote

        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            quoted = false
        }
        func endRecord() {
            endField()
            if !(fields.count == 1 && fields[0].isEmpty) { records.append(Record(line: recordLine, fields: fields)) }
            fields.removeAll(keepingCapacity: true)
        }

        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "\""):
                guard field.isEmpty else {
                    throw CSVLineError(
                        line: line,
                        problem: "a quote (\") inside a field that does not start "
                            + "with one: put the whole field in quotes and double the quote")
                }
                quoted = true
                i += 1
                let opened = line
                while true {
                    guard i < bytes.count else {
                        throw CSVLineError(line: opened, problem: "a quoted field is never closed")
                    }
                    if bytes[i] == UInt8(ascii: "\"") {
                        if i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\"") {
                            field.append(UInt8(ascii: "\""))
                            i += 2
                            continue
                        }
                        i += 1
                        break
                    }
                    if Self.endsLine(bytes, at: i) { line += 1 }
                    field.append(bytes[i])
                    i += 1
                }
                if i < bytes.count && ![UInt8(ascii: ","), UInt8(ascii: "\r"), UInt8(ascii: "\n")].contains(bytes[i]) {
                    throw CSVLineError(line: line, problem: "text after the closing quote of a field")
                }
            case UInt8(ascii: ","):
                endField()
                i += 1
            case UInt8(ascii: "\r") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\n"):
                i += 1  // the LF ends the record
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                endRecord()
                line += 1
                recordLine = line
                i += 1
            default:
                guard !quoted else {
                    throw CSVLineError(line: line, problem: "text after the closing quote of a field")
                }
                field.append(byte)
                i += 1
            }
        }
        if !field.isEmpty || !fields.isEmpty || quoted { endRecord() }
        return records
    }

    /// Whether the byte at `i` ends a line: a LF, or a CR not followed by one.
    static func endsLine(_ bytes: [UInt8], at i: Int) -> Bool {
        bytes[i] == UInt8(ascii: "\n")
            || (bytes[i] == UInt8(ascii: "\r") && (i + 1 == bytes.count || bytes[i + 1] != UInt8(ascii: "\n")))
    }
}
