import Foundation

/// Header values as RFC 5322 and RFC 2047 want them: plain ASCII as is, other text as UTF-8 encoded-words,
/// lines folded before 78 characters.
enum HeaderText {
    /// Whether `text` holds CR, LF or another control character (tab is allowed), which no header value may.
    static func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 32 && $0 != "\t") || $0.value == 127 }
    }

    /// `Name: value` folded for the wire, without the final CRLF (the value has no control characters).
    static func unstructured(_ name: String, _ value: String) -> String {
        let prefix = name + ": "
        if isPlainASCII(value) && prefix.utf8.count + value.utf8.count <= 78 && !value.contains("=?") {
            return prefix + value
        }
        return prefix + encodedWords(value, firstLineUsed: prefix.utf8.count).joined(separator: "\r\n ")
    }

    /// `Name: addr, addr`, one address per line after the first.
    static func addresses(_ name: String, _ list: [MailAddress]) -> String {
        let prefix = name + ": "
        return prefix + list.map { mailbox($0, firstLineUsed: prefix.utf8.count) }.joined(separator: ",\r\n ")
    }

    /// `display name <local@domain>`: the name as atoms, a quoted string, or encoded-words.
    static func mailbox(_ address: MailAddress, firstLineUsed: Int) -> String {
        guard let name = address.displayName else { return address.address }
        let atext = Set("!#$%&'*+-/=?^_`{|}~ ".utf8)
        let phrase: String
        if isPlainASCII(name) && name.utf8.allSatisfy({ isAlphanumeric($0) || atext.contains($0) })
            && !name.contains("=?")
        {
            phrase = name
        } else if isPlainASCII(name) && !name.contains("=?") {
            phrase =
                "\""
                + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                    of: "\"", with: "\\\"") + "\""
        } else {
            phrase = encodedWords(name, firstLineUsed: firstLineUsed).joined(separator: "\r\n ")
        }
        // Fold before the address when it would push the phrase's last line past 78 characters.
        let lastLine = phrase.components(separatedBy: "\r\n").last ?? phrase
        let used = (phrase.contains("\r\n") ? 0 : firstLineUsed) + lastLine.utf8.count
        let separator = used + address.address.utf8.count + 4 > 78 ? "\r\n " : " "  // " <", ">" and a comma
        return phrase + separator + "<" + address.address + ">"
    }

    /// `text` as `=?UTF-8?B?…?=` words of at most 75 characters, split between Unicode scalars so each word
    /// decodes on its own; the first word also fits after `firstLineUsed` characters of its line.
    static func encodedWords(_ text: String, firstLineUsed: Int) -> [String] {
        let overhead = "=?UTF-8?B??=".utf8.count
        var words: [String] = []
        var chunk: [UInt8] = []
        var budget = max(((76 - firstLineUsed - overhead) / 4) * 3, 6)
        func flush() {
            words.append("=?UTF-8?B?" + Data(chunk).base64EncodedString() + "?=")
            chunk = []
            budget = ((76 - 1 - overhead) / 4) * 3
        }
        for scalar in text.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if chunk.count + bytes.count > budget { flush() }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { flush() }
        return words
    }

    /// RFC 5322 date in UTC: `Tue, 01 Dec 2026 18:00:00 +0000`.
    static func date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int?) -> String {
            let v = n ?? 0
            return v < 10 ? "0\(v)" : "\(v)"
        }
        return "\(days[(c.weekday ?? 1) - 1]), \(two(c.day)) \(months[(c.month ?? 1) - 1]) \(c.year ?? 1970) "
            + "\(two(c.hour)):\(two(c.minute)):\(two(c.second)) +0000"
    }

    static func isPlainASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 32 && $0 < 127 }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
}
