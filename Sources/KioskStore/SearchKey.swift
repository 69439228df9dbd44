import Foundation

/// The folded forms the roster is searched by. SQLite's `lower()` only folds ASCII, so the store folds in
/// Swift when writing and when searching: "Émile" is found by "emi", "STRASSE" by "straß".
enum SearchKey {
    /// Case- and accent-folded, whitespace runs made one space, trimmed.
    static func fold(_ text: String) -> String {
        // ASCII text (most e-mail addresses and many names) has no diacritics and its case folds to its
        // lowercase: no need for Foundation's Unicode folding, which every row of a roster download pays.
        let folded =
            text.utf8.allSatisfy { $0 < 0x80 }
            ? text.lowercased() : text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        return folded.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The words of a folded name, split at spaces and hyphens ("mary-jane o'neil": mary, jane, o'neil).
    /// Migration 2 splits the same way in SQL.
    static func words(ofFolded key: String) -> Set<Substring> {
        Set(key.split(whereSeparator: { $0 == " " || $0 == "-" }))
    }

    /// The exclusive upper bound of the strings starting with `prefix` under SQLite's BINARY (UTF-8 byte)
    /// order: U+10FFFF is the greatest code point, so `key >= prefix AND key < upperBound(prefix)` is an
    /// index range.
    static func upperBound(ofPrefix prefix: String) -> String { prefix + "\u{10FFFF}" }
}
