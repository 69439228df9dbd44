import Foundation

/// CSV for spreadsheets (RFC 4180 with CRLF, UTF-8 with a byte-order mark so Excel reads accents): every field
/// quoted when it needs to be, and a field that a spreadsheet would run as a formula (starting with `=`, `+`,
/// `-`, `@`, a tab or a carriage return) prefixed with `'`, so a guest named `=HYPERLINK(...)` stays text.
public enum SpreadsheetCSV {
    public static func document(header: [String], rows: [[String]]) -> String {
        var text = "\u{FEFF}" + line(header)
        for row in rows { text += line(row) }
        return text
    }

    static func line(_ fields: [String]) -> String { fields.map(field).joined(separator: ",") + "\r\n" }

    /// One field, neutralised and quoted as needed.
    public static func field(_ value: String) -> String {
        var text = value
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) { text = "'" + text }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
