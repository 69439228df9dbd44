import Foundation

/// The folded forms the roster is searched by. SQLite's `lower()` only folds ASCII, so the store folds in
/// Swift when writing and when searching: "Émile" is found by "emi", "STRASSE" by "straß".
enum SearchKey {
    /// Case- and accent-folded, whitespace runs made one space, trimmed.
    static func fold(_ text: String) -> String {
        // ASCII text (most e-mail addresses and many names) has no diacritics and its case folds to its
        // lowercase: no need for Foundation's Unicode folding, which every row of a roster download pays.
        if isASCII(text) { return lowercasedCollapsingSpaces(ascii: text) }
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        // Most accented names fold to ASCII ("Émile" to "emile"): their spaces need no grapheme breaking.
        if isASCII(folded) { return lowercasedCollapsingSpaces(ascii: folded) }
        return folded.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The statement that writes the name words of the roster rows of event `?1` whose guest ids the JSON array
    /// `?2` lists: each folded name split at spaces and hyphens ("mary-jane o'neil": mary, jane, o'neil), as
    /// Unicode scalars (SQLite's `instr` and `substr`; migration 2 splits the same way), inserted sorted as
    /// `roster_words` is, in one pass inside SQLite. Words a guest already has are kept.
    static let wordsSQL = """
        WITH RECURSIVE split (guest_id, word, rest) AS (
            SELECT r.guest_id, '', replace(r.name_key, '-', ' ') || ' '
            FROM json_each(?2) AS j CROSS JOIN roster AS r ON r.event = ?1 AND r.guest_id = j.value
            UNION ALL
            SELECT guest_id, substr(rest, 1, instr(rest, ' ') - 1), substr(rest, instr(rest, ' ') + 1)
            FROM split WHERE rest <> ''
        )
        INSERT OR IGNORE INTO roster_words (event, word, guest_id)
        SELECT ?1, word, guest_id FROM split WHERE word <> '' ORDER BY word, guest_id
        """

    static func isASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }

    /// What `lowercased()` and splitting at `Character.isWhitespace` then joining with one space give for ASCII
    /// text, in one pass over its bytes: the ASCII whitespace characters are tab, line feed, vertical tab, form
    /// feed, carriage return (also as CR LF, one character) and space.
    static func lowercasedCollapsingSpaces(ascii text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var space = false
        for byte in text.utf8 {
            switch byte {
            case 0x09...0x0D, 0x20:
                space = !bytes.isEmpty
            default:
                if space {
                    bytes.append(0x20)
                    space = false
                }
                bytes.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The exclusive upper bound of the strings starting with `prefix` under SQLite's BINARY (UTF-8 byte)
    /// order: U+10FFFF is the greatest code point, so `key >= prefix AND key < upperBound(prefix)` is an
    /// index range.
    static func upperBound(ofPrefix prefix: String) -> String { prefix + "\u{10FFFF}" }
}
