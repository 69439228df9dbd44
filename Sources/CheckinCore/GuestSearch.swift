import Foundation

/// How the guest list's search box reads what was typed.
public enum GuestSearch {
    /// The text as a confirmation-code prefix: upper-cased, without dashes and spaces; empty (no search by code)
    /// when it is shorter than `minimumCodePrefix` or holds a character no code has.
    public static func codePrefix(_ text: String) -> String {
        let code = String(text.uppercased().filter { $0 != "-" && $0 != " " })
        guard code.count >= minimumCodePrefix, code.allSatisfy(codeCharacters.contains) else { return "" }
        return code
    }

    /// The fewest characters that search by code: one group of the printed code (`ABCD-EFGH-...`). A shorter text
    /// is the start of a name or an address: "d" found every guest whose code starts with D.
    public static let minimumCodePrefix = 4

    /// The characters of a code (RFC 4648 base32).
    static let codeCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")

    /// `text` for a SQL `LIKE ... ESCAPE '\\'` pattern: `%`, `_` and `\\` match themselves.
    public static func likeEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// The text with the accents of Latin letters taken off, case kept ("Núñez" to "Nunez", "Ø" to "O"): what
    /// the names are compared in, so "nunez", "francois", "muller" and "zoe" find "Núñez", "François",
    /// "Müller" and "Zoë". One letter for one (PostgreSQL's `translate` does the same with `unaccentFrom` and
    /// `unaccentTo`); case is left to `LIKE` and `ILIKE`.
    public static func unaccented(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value >= 0xC0 }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { result.append(unaccentMap[scalar] ?? scalar) }
        return String(result)
    }

    /// Each accented Latin letter (U+00C0 to U+024F) and its letter without the accent.
    static let unaccentMap: [Unicode.Scalar: Unicode.Scalar] = {
        var map: [Unicode.Scalar: Unicode.Scalar] = [:]
        for value in UInt32(0xC0)...0x24F {
            guard let scalar = Unicode.Scalar(value), scalar.properties.isAlphabetic else { continue }
            let plain = String(scalar).folding(options: .diacriticInsensitive, locale: nil).unicodeScalars
            if plain.count == 1, let base = plain.first, base != scalar, base.isASCII { map[scalar] = base }
        }
        // Letters whose stroke Unicode does not count as an accent.
        for (letter, base) in [("ø", "o"), ("Ø", "O"), ("ł", "l"), ("Ł", "L"), ("đ", "d"), ("Đ", "D"), ("ı", "i")] {
            map[letter.unicodeScalars.first!] = base.unicodeScalars.first!
        }
        return map
    }()

    /// `translate(name, unaccentFrom, unaccentTo)` in SQL is `unaccented(name)`.
    public static let (unaccentFrom, unaccentTo): (String, String) = {
        let pairs = unaccentMap.sorted { $0.key.value < $1.key.value }
        var from = String.UnicodeScalarView()
        var to = String.UnicodeScalarView()
        for (letter, base) in pairs {
            from.append(letter)
            to.append(base)
        }
        return (String(from), String(to))
    }()
}
